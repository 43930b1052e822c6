import { z } from 'zod';
import { CHANNELS } from '../../domain/channels.js';
import { JOB_STATUSES } from '../../domain/job.types.js';
import { PROJECT_ID_PATTERN } from '../../projects/project.types.js';

/** Argument and result fragments several tools share. */

export const projectIdArg = z
  .string()
  .regex(PROJECT_ID_PATTERN, 'must be a project id such as "acme" (list them with list_projects)')
  .describe('Project id; leave it out with a project key (the key’s project is used)');

export const jobIdArg = z
  .uuid({ message: 'must be a job id (a UUID such as 6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f)' })
  .describe('Job id (UUID)');

export const subscriberIdArg = z.string().min(1).max(255).describe('Subscriber id');

export const endpointIdArg = z.string().min(1).max(64).describe('Endpoint id from list_webhooks');

export const channelArg = z.enum(CHANNELS).describe(`Channel: ${CHANNELS.join(', ')}`);
export const jobStatusArg = z.enum(JOB_STATUSES).describe(`Job status: ${JOB_STATUSES.join(', ')}`);

export const isoTime = z.string().describe('RFC 3339 time');
export const nullableIso = isoTime.nullable();

/** A time argument checked at the edge: RFC 3339 with its offset (Z or ±hh:mm); the message shows `example`. */
export const timeArg = (example: string) =>
  z.iso.datetime({ offset: true, message: `must be an RFC 3339 time such as ${example}` });

/**
 * The page most list tools take: `limit` bounded as PageLimitQueryDto bounds it (1–200, 50 by
 * default) and the opaque `cursor`, the next_cursor of the previous page. Spread it into the input.
 */
export const pageArgs = {
  limit: z.number().int().min(1).max(200).default(50),
  cursor: z.string().max(1000).optional(),
};

/** Wait durations as POST /v1/send takes them: `500ms`, `10s`; at most 30 s. */
export const waitArg = z.string().regex(/^\d{1,6}(ms|s)$/, 'must be a duration such as 500ms or 10s (at most 30s)');

/** How many times it was tried, out of the attempts it may have before it fails for good. */
export const attemptFields = { attempts: z.number(), max_attempts: z.number() };

/** Which provider took a message, and the id it gave it there (null until one did). */
export const providerFields = {
  provider: z.string().nullable(),
  provider_message_id: z.string().nullable(),
};

/** One job as an operator listing shows it (recipient masked). */
export const jobSummary = z.object({
  id: z.string(),
  project_id: z.string(),
  channel: z.string(),
  status: z.string(),
  recipient: z.string(),
  subject: z.string().nullable(),
  topic: z.string().nullable(),
  priority: z.number(),
  ...attemptFields,
  ...providerFields,
  scheduled_at: isoTime,
  sent_at: nullableIso,
  next_retry_at: nullableIso,
  created_at: isoTime,
  error: z.string().nullable(),
  created_by: z
    .string()
    .nullable()
    .describe(
      'Who queued it: a project key’s hint (sk_shop_…1f2e), admin, mcp or workflow; null for jobs older than the field',
    ),
});

/** What a delete tool answers: the id it was given, and whether there was something to delete. */
export const deletedResult = z.object({ id: z.string(), deleted: z.boolean() });
/** What a revoke tool answers: the id it was given, and whether there was something to revoke. */
export const revokedResult = z.object({ id: z.string(), revoked: z.boolean() });
