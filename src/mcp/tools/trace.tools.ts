import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { maskRecipient } from '../../common/pii/mask.js';
import { TRACE_MAX_LIMIT, TraceQueryDto } from '../../jobs/dto/trace.dto.js';
import {
  TRACE_ATTEMPTS_PER_JOB,
  TRACE_COUNT_CAP,
  TRACE_PROVIDER_EVENTS_PER_JOB,
} from '../../jobs/trace/trace-limits.js';
import { TraceService } from '../../jobs/trace/trace.service.js';
import { defineTool, READ_ONLY } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { jobWaiting } from './job-waiting.js';
import { timelineEvent } from './job-views.js';
import { isoTime, nullableIso, projectIdArg, providerFields, timeArg } from './schemas.js';
import { validateDto } from './validate-dto.js';

/** The columns of the text table: what a person on call reads first. */
const TRACE_COLUMNS = ['created_at', 'channel', 'verdict', 'rule', 'reason', 'job_id', 'project_id'];

const suppression = z.object({
  id: z.string(),
  project_id: z.string(),
  channel: z.string(),
  address: z.string(),
  reason: z.string(),
  scope: z.string(),
  source: z.string(),
  detail: z.string().nullable(),
  evidence: z.record(z.string(), z.unknown()),
  source_job_id: z.string().nullable(),
  created_at: isoTime,
});

const message = z.object({
  kind: z.string().describe('job (queued) or refusal (refused when asked for: no job exists)'),
  job_id: z.string().nullable(),
  project_id: z.string(),
  channel: z.string(),
  recipient: z.string(),
  subscriber_id: z.string().nullable(),
  created_at: isoTime,
  status: z.string(),
  verdict: z.string().describe('refused, waiting, sending, sent, delivered, bounced, complained, failed or cancelled'),
  rule: z
    .string()
    .nullable()
    .describe(
      'For a refusal: suppressed, opted_out, capped, invalid_address, no_address, unknown_subscriber, not_configured, skipped_at_send',
    ),
  reason: z.string(),
  created_by: z.string().nullable(),
  ...providerFields,
  attempts: z.number(),
  waiting: jobWaiting,
  attempt_log: z.array(
    z.object({
      at: isoTime,
      attempt: z.number(),
      outcome: z.string(),
      counted: z.boolean(),
      provider: z.string().nullable(),
      error: z.string().nullable(),
      next_at: nullableIso,
    }),
  ),
  attempt_log_omitted: z
    .number()
    .optional()
    .describe(
      `Older attempts left out of attempt_log (a trace shows each job’s newest ${TRACE_ATTEMPTS_PER_JOB}, counts up to ${TRACE_COUNT_CAP}; job_timeline reads one job)`,
    ),
  provider_events: z.array(
    z.object({
      provider: z.string(),
      type: z.string(),
      kind: z.string(),
      occurred_at: isoTime,
      error: z.string().nullable(),
    }),
  ),
  provider_events_omitted: z
    .number()
    .optional()
    .describe(
      `Older provider events left out of provider_events (a trace shows each job’s newest ${TRACE_PROVIDER_EVENTS_PER_JOB}, counts up to ${TRACE_COUNT_CAP}; job_timeline reads one job)`,
    ),
  suppression: suppression.nullable(),
  events: z.array(timelineEvent),
});

/** trace_recipient: "why didn't they get it?", through the service behind GET /v1/admin/trace. */
@Injectable()
export class TraceTools implements McpToolProvider {
  constructor(private readonly traces: TraceService) {}

  tools() {
    return [
      defineTool({
        name: 'trace_recipient',
        title: 'Why didn’t they get it?',
        description:
          'Every message notifyd was asked to send one recipient (recipient: email, phone or chat id; or subscriber_id) in a time range (default the last 7 days, at most 31), newest first, ' +
          'each with a verdict (refused, waiting, sending, sent, delivered, bounced, complained, failed, cancelled), the reason in words and the evidence: ' +
          'the rule that refused it at enqueue (suppression with its evidence, preference, cap, invalid address…), what holds a waiting job (lane pause, schedule, retry), ' +
          'each attempt with the provider’s answer, and the provider’s webhook evidence. Also the subscribers the recipient resolves to and the active suppressions of its addresses. ' +
          'Operator keys see recipients masked. Follow a job up with job_timeline.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({
          recipient: z
            .string()
            .min(1)
            .max(320)
            .optional()
            .describe('Email, E.164 phone or chat id, as jobs carry it (give this or subscriber_id)'),
          subscriber_id: z.string().min(1).max(255).optional().describe('A subscriber id (give this or recipient)'),
          project_id: projectIdArg
            .optional()
            .describe('Operators: one project (default every project); a project key reads its own'),
          since: timeArg('2026-11-29T00:00:00Z').optional(),
          until: timeArg('2026-11-30T00:00:00Z').optional(),
          limit: z.number().int().min(1).max(TRACE_MAX_LIMIT).default(50),
        }),
        output: z.object({
          recipient: z.object({
            addresses: z.array(z.string()),
            subscribers: z.array(
              z.object({
                project_id: z.string(),
                id: z.string(),
                email: z.string().nullable(),
                phone: z.string().nullable(),
              }),
            ),
            suppressions: z.array(suppression),
          }),
          messages: z.array(message),
          count: z.number(),
          verdicts: z.record(z.string(), z.number()),
          truncated: z.boolean(),
          since: isoTime,
          until: isoTime,
        }),
        run: async (args, context) => {
          const projectId = context.project(args.project_id);
          const query = await validateDto(TraceQueryDto, { ...args, project_id: projectId ?? undefined });
          const result = await this.traces.trace(query, {
            projectId: context.caller.role === 'project' ? projectId : null,
            masked: context.caller.role !== 'project',
          });
          const masked = context.caller.role !== 'project';
          const who = args.recipient
            ? masked
              ? maskRecipient(args.recipient)
              : args.recipient
            : `subscriber ${args.subscriber_id}`;
          if (result.count === 0) {
            return {
              structured: result,
              text: `Nothing was asked for ${who} between ${result.since} and ${result.until}: no job and no refused send. Widen since/until, or check the address (list_jobs finds jobs by recipient).`,
            };
          }
          const verdicts = Object.entries(result.verdicts)
            .map(([verdict, n]) => `${n} ${verdict}`)
            .join(', ');
          const suppressed = result.recipient.suppressions.length
            ? ` Active suppressions: ${result.recipient.suppressions.map((s) => `${s.channel} ${s.reason} (${s.source})`).join(', ')}.`
            : '';
          return {
            structured: result,
            text: `${result.count} message(s) for ${who} between ${result.since} and ${result.until}${result.truncated ? ' (more matched: narrow the range)' : ''}: ${verdicts}.${suppressed}`,
            table: { rows: result.messages, columns: TRACE_COLUMNS },
          };
        },
      }),
    ];
  }
}
