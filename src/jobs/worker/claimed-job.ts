import type { Channel } from '../../config/sections/connectors.config.js';
import type { JobPayload } from '../job.types.js';

/** A job the worker holds: status processing, `attempts` already counting this attempt. */
export interface ClaimedJob {
  id: string;
  projectId: string;
  channel: Channel;
  subscriberId: string | null;
  recipient: string;
  templateId: string | null;
  topic: string | null;
  payload: JobPayload;
  priority: number;
  attempts: number;
  maxAttempts: number;
  scheduledAt: Date;
  runAt: Date;
  idempotencyKey: string | null;
}
