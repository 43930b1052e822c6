import type { JobRow } from '../job.types.js';

/** A job the worker holds: status processing, `attempts` already counting this attempt. */
export type ClaimedJob = Pick<
  JobRow,
  | 'id'
  | 'projectId'
  | 'channel'
  | 'subscriberId'
  | 'recipient'
  | 'templateId'
  | 'topic'
  | 'payload'
  | 'priority'
  | 'attempts'
  | 'maxAttempts'
  | 'scheduledAt'
  | 'runAt'
  | 'idempotencyKey'
>;
