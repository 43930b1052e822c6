import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { BatchRequestDto } from '../../jobs/dto/batch.dto.js';
import { SendRequestDto, type SendResponseDto } from '../../jobs/dto/send.dto.js';
import { BatchService } from '../../jobs/batch.service.js';
import { BatchStatusService } from '../../jobs/batch-status.service.js';
import { EnqueueService } from '../../jobs/enqueue.service.js';
import { defineTool, type McpToolOutcome, READ_ONLY, SENDS_MESSAGE } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { channelArg, projectIdArg, providerFields, waitArg } from './schemas.js';
import { validateDto } from './validate-dto.js';

const DEFAULT_WAIT = '10s';

/** The content fields send and batch share (the REST DTO checks them in depth). */
const content = {
  project_id: projectIdArg.optional(),
  channels: z.array(channelArg).min(1).describe('Channels to send on'),
  subject: z.string().max(998).optional(),
  body: z.string().max(100_000).optional().describe('Text; {{var}} placeholders are filled from vars'),
  body_html: z.string().max(1_000_000).optional(),
  vars: z.record(z.string(), z.unknown()).optional(),
  priority: z
    .union([z.enum(['critical', 'high', 'normal', 'low', 'bulk']), z.number().int().min(0).max(100)])
    .optional(),
  scheduled_at: z.string().optional().describe('RFC 3339 time to send at; default now'),
  url: z.string().max(2048).optional(),
  template: z
    .string()
    .max(200)
    .optional()
    .describe(
      'Stored template id (see list_templates), rendered per channel and locale; channels without a variant use subject/body',
    ),
  topic: z
    .string()
    .max(64)
    .optional()
    .describe('What the message is about: subscribers who opted out of the topic are skipped'),
};

const outcome = z.object({
  id: z.string(),
  channel: z.string(),
  status: z.string(),
  final: z.boolean(),
  attempts: z.number(),
  ...providerFields,
  error: z.string().nullable(),
  sent_at: z.string().nullable(),
  next_retry_at: z.string().nullable(),
});

const sendResult = z.object({
  job_ids: z.array(z.string()),
  deduplicated: z.boolean(),
  skipped: z.array(z.object({ channel: z.string(), reason: z.string() })),
  timed_out: z.boolean(),
  outcomes: z.array(outcome),
});

/** Sending from an agent: send (waiting for the provider's answer) and batch (fan-out to subscribers). */
@Injectable()
export class SendTools implements McpToolProvider {
  constructor(
    private readonly enqueue: EnqueueService,
    private readonly batches: BatchService,
    private readonly batchStatus: BatchStatusService,
  ) {}

  tools() {
    return [
      defineTool({
        name: 'send',
        title: 'Send a notification',
        description:
          'Send one notification to one recipient (`to` address or stored `subscriber_id`) on one or more channels and wait (default 10s, at most 30s; ' +
          '"0s" returns at once) for the provider’s answer: sent with its message id, or failed with the provider’s error. If the wait runs out, ' +
          'timed_out is true: follow up with get_job. Use idempotency_key (e.g. "<event>-<entity id>") so a retried call never sends twice.',
        annotations: SENDS_MESSAGE,
        audience: 'project',
        input: z.strictObject({
          ...content,
          to: z.string().min(1).max(2048).optional().describe('Address on every channel: email, E.164 phone, chat id'),
          subscriber_id: z.string().min(1).max(255).optional().describe('Subscriber whose stored addresses are used'),
          idempotency_key: z.string().max(255).optional(),
          wait: waitArg.default(DEFAULT_WAIT).describe('How long to wait for the outcome: 0s to 30s'),
        }),
        output: sendResult,
        run: async ({ project_id: projectId, wait, ...rest }, context) => {
          const project = {
            ...(await context.scopedProject(projectId)),
            createdBy: context.createdBy,
          };
          const waitFor = /^0+(ms|s)$/.test(wait) ? {} : { wait };
          const dto = await validateDto(SendRequestDto, { ...rest, ...waitFor });
          return presentSend(await this.enqueue.send(project, dto));
        },
      }),
      defineTool({
        name: 'batch',
        title: 'Send to many subscribers',
        description:
          'Queue one message for up to 10 000 subscribers (a campaign); each subscriber × channel becomes a job, addresses come from the stored ' +
          'profiles, opted-out subscribers are skipped. Use priority "bulk" so transactional mail goes first, and idempotency_key so a replay sends nothing twice. ' +
          'Returns counts and a batch_id; watch progress with get_batch.',
        annotations: SENDS_MESSAGE,
        audience: 'project',
        input: z.strictObject({
          ...content,
          subscribers: z.array(z.string().min(1).max(255)).min(1).max(10_000).describe('Subscriber ids'),
          idempotency_key: z.string().max(120).optional(),
          tags: z
            .array(z.object({ name: z.string(), value: z.string() }))
            .max(50)
            .optional()
            .describe('Tags on every job, e.g. [{"name":"campaign","value":"winter-sale"}]'),
        }),
        output: z.object({
          batch_id: z.string(),
          jobs_created: z.number(),
          jobs_deduplicated: z.number(),
          jobs_skipped: z.number(),
        }),
        run: async ({ project_id: projectId, ...rest }, context) => {
          const project = {
            ...(await context.scopedProject(projectId)),
            createdBy: context.createdBy,
          };
          const result = await this.batches.batch(project, await validateDto(BatchRequestDto, rest));
          const counts = {
            batch_id: result.batch_id,
            jobs_created: result.jobs_created,
            jobs_deduplicated: result.jobs_deduplicated,
            jobs_skipped: result.jobs_skipped,
          };
          return {
            structured: counts,
            text: `Batch ${counts.batch_id}: ${counts.jobs_created} job(s) queued, ${counts.jobs_deduplicated} already queued by an earlier call, ${counts.jobs_skipped} skipped.`,
          };
        },
      }),
      defineTool({
        name: 'get_batch',
        title: 'Get a batch',
        description:
          'How a batch (the batch_id of a batch answer) is doing: subscribers read, jobs created, pairs skipped by reason, and its jobs now queued, processing, sent, failed, bounced and cancelled.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({ id: z.uuid().describe('The batch_id a batch call answered') }),
        output: z.object({
          id: z.string(),
          completed_at: z.string().nullable(),
          subscribers: z.number(),
          jobs_created: z.number(),
          skipped_by_reason: z.record(z.string(), z.number()),
          jobs: z.object({
            queued: z.number(),
            processing: z.number(),
            sent: z.number(),
            failed: z.number(),
            bounced: z.number(),
            cancelled: z.number(),
          }),
        }),
        run: async ({ id }, context) => {
          const b = await this.batchStatus.status(id, context.project(undefined));
          const structured = {
            id: b.id,
            completed_at: b.completed_at,
            subscribers: b.subscribers,
            jobs_created: b.jobs_created,
            skipped_by_reason: b.skipped_by_reason,
            jobs: b.jobs,
          };
          const j = b.jobs;
          const skipped =
            Object.entries(b.skipped_by_reason)
              .map(([rule, n]) => `${n} ${rule}`)
              .join(', ') || 'none';
          return {
            structured,
            text: `Batch ${b.id}: ${b.jobs_created} job(s) created for ${b.subscribers} subscriber(s); now ${j.queued} queued, ${j.processing} processing, ${j.sent} sent, ${j.failed} failed, ${j.bounced} bounced, ${j.cancelled} cancelled; skipped: ${skipped}.`,
          };
        },
      }),
    ];
  }
}

function presentSend(response: SendResponseDto): McpToolOutcome<z.input<typeof sendResult>> {
  const outcomes = response.outcomes ?? [];
  const structured = {
    job_ids: response.job_ids,
    deduplicated: response.deduplicated,
    skipped: response.skipped.map((s) => ({ channel: s.channel, reason: s.reason })),
    timed_out: response.timed_out ?? false,
    outcomes: outcomes.map((o) => ({
      id: o.id,
      channel: o.channel,
      status: o.status,
      final: o.final,
      attempts: o.attempts,
      provider: o.provider,
      provider_message_id: o.provider_message_id,
      error: o.error,
      sent_at: o.sent_at,
      next_retry_at: o.next_retry_at,
    })),
  };
  if (!response.job_ids.length) {
    const why = response.skipped.map((s) => `${s.channel}: ${s.reason}`).join('; ') || 'nothing was queued';
    return { structured, text: `Not sent: ${why}.`, isError: true };
  }
  const lines = outcomes.length
    ? outcomes.map((o) =>
        o.status === 'sent'
          ? `${o.channel}: sent by ${o.provider} (provider message id ${o.provider_message_id ?? 'none'}), job ${o.id}.`
          : `${o.channel}: job ${o.id} ${o.status}${o.error ? ` (${o.error})` : ''}${o.final ? '' : '; check it later with get_job'}.`,
      )
    : [`Queued job(s) ${response.job_ids.join(', ')}; read the outcome with get_job.`];
  if (response.skipped.length)
    lines.push(`Skipped: ${response.skipped.map((s) => `${s.channel}: ${s.reason}`).join('; ')}.`);
  return {
    structured,
    text: lines.join('\n'),
    isError: outcomes.length > 0 && outcomes.every((o) => o.status === 'failed'),
  };
}
