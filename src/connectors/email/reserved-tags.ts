/** The tag notifyd puts on every email; providers echo it in their webhooks, naming the job. */
export const JOB_ID_TAG = 'notifyd_job_id';

/**
 * Tag names starting with this (any case) are notifyd's own. A caller's `notifyd_job_id` naming
 * another job would make that job's provider evidence (bounces, complaints) land on it, so they
 * are refused at enqueue and dropped from what a connector sends.
 */
export const RESERVED_TAG_PREFIX = 'notifyd_';

export function isReservedTag(name: string): boolean {
  return name.toLowerCase().startsWith(RESERVED_TAG_PREFIX);
}
