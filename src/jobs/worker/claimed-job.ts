import type { JobRow } from '../../domain/job.types.js';

/**
 * A job the worker holds: status processing, `attempts` already counting this attempt. Only
 * what sending needs: every column here is parsed for every claimed job (a timestamp costs a
 * Date parse each, which showed in the drain's profile), so due times are not read back.
 */
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
  | 'idempotencyKey'
>;
