import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { Db } from '../../database/db.js';
import { JobsService } from '../../jobs/jobs.service.js';
import { defineTool, DESTRUCTIVE_WRITE, type McpToolContext, READ_ONLY, SENDS_MESSAGE } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import {
  jobDetail,
  jobDetailView,
  jobSummaryView,
  renderedContent,
  renderedEvents,
  renderedText,
  rowEvents,
  timelineEvent,
} from './job-views.js';
import { channelArg, jobIdArg, jobStatusArg, jobSummary, projectIdArg, timeArg } from './schemas.js';
import { JOB_AUDIT_EVENTS } from './sql/timeline.sql.js';
import { jobWaiting, waitingReason } from './job-waiting.js';
import { renderFields } from '../server/text-table.js';
import { LaneStateService, type LaneState } from '../../pacing/lane-state.service.js';
import type { JobRow } from '../../domain/job.types.js';
import { RECIPIENT_DOMAIN } from '../../jobs/dto/job.dto.js';

/** The columns of list_jobs' text table: what tells jobs apart and why they failed. */
const JOB_LIST_COLUMNS = [
  'id',
  'project_id',
  'channel',
  'status',
  'recipient',
  'attempts',
  'provider',
  'created_by',
  'created_at',
  'error',
];
/** get_job's text: every field but the content. */
const JOB_DETAIL_FIELDS = [
  'id',
  'project_id',
  'channel',
  'status',
  'recipient',
  'subscriber_id',
  'topic',
  'priority',
  'attempts',
  'max_attempts',
  'provider',
  'provider_message_id',
  'created_by',
  'created_at',
  'scheduled_at',
  'next_retry_at',
  'sent_at',
  'delivered_at',
  'bounced_at',
  'error',
];

/** Operator keys see recipients masked; a project key reads its own data. */
const masked = (context: McpToolContext) => context.caller.role !== 'project';

/** Finding, reading and steering jobs: list_jobs, get_job, job_timeline, retry_job, cancel_job, send_test. */
@Injectable()
export class JobsTools implements McpToolProvider {
  constructor(
    private readonly jobs: JobsService,
    private readonly db: Db,
    private readonly lanes: LaneStateService,
  ) {}

  /** Lane states, only when the job waits (a finished job has nothing holding it). */
  private laneStates(job: JobRow): Promise<LaneState[]> {
    return job.status === 'pending' || job.status === 'retry' ? this.lanes.lanes() : Promise.resolve([]);
  }

  tools() {
    return [
      defineTool({
        name: 'list_jobs',
        title: 'List jobs',
        description:
          'Search jobs, newest first (default: the last 7 days, 50 rows). Filter by project_id, status (failed, retry… to investigate a finding), ' +
          'channel, recipient (exact, case-insensitive), recipient_domain (e.g. a misspelt domain a digest cause names), created_by (the key that queued them), topic and since. ' +
          'Recipients are masked for operator keys (the domain stays visible). The text lists the rows as a table. Follow up with get_job or job_timeline.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          status: jobStatusArg.optional(),
          channel: channelArg.optional(),
          recipient: z.string().min(1).max(2048).optional().describe('Exact recipient address, case-insensitive'),
          recipient_domain: z
            .string()
            .regex(RECIPIENT_DOMAIN, 'must be a domain such as example.com (the part after the @)')
            .optional()
            .describe('Recipient domain (after the @), case-insensitive'),
          created_by: z
            .string()
            .min(1)
            .max(80)
            .optional()
            .describe(
              'Who queued the jobs, as jobs show it: a project key hint (sk_shop_…1f2e), admin, mcp or workflow',
            ),
          topic: z
            .string()
            .regex(/^[a-z0-9_.:-]{1,64}$/, 'must be a topic id: 1–64 of a-z 0-9 - _ . :')
            .optional(),
          since: timeArg('2026-11-29T00:00:00Z').optional().describe('Only jobs created since; default 7 days ago'),
          limit: z.number().int().min(1).max(500).default(50),
        }),
        output: z.object({ jobs: z.array(jobSummary), count: z.number() }),
        run: async (args, context) => {
          const rows = await this.jobs.search({ ...args, project_id: context.project(args.project_id) ?? undefined });
          const jobs = rows.map((row) => jobSummaryView(row, masked(context)));
          const counts = new Map<string, number>();
          for (const job of jobs) counts.set(job.status, (counts.get(job.status) ?? 0) + 1);
          const byStatus = [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
          if (!jobs.length) return { structured: { jobs, count: 0 }, text: 'No job matches these filters.' };
          return {
            structured: { jobs, count: jobs.length },
            text: `${jobs.length} job(s): ${byStatus}.`,
            table: { rows: jobs, columns: JOB_LIST_COLUMNS },
          };
        },
      }),
      defineTool({
        name: 'get_job',
        title: 'Get a job',
        description:
          'One job by id: status, attempts, provider and its message id, the last error, who queued it (created_by), every timestamp, and for a waiting job what holds it and until when. ' +
          'Use job_timeline for every attempt in order.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({ id: jobIdArg }),
        output: jobDetail.extend({ waiting: jobWaiting }),
        run: async ({ id }, context) => {
          const row = await this.jobs.get(id, context.project(undefined));
          const waiting = waitingReason(row, await this.laneStates(row));
          const job = { ...jobDetailView(row, masked(context)), waiting };
          const text =
            `Job ${job.id} (${job.channel}, project ${job.project_id}) is ${job.status} after ${job.attempts}/${job.max_attempts} attempt(s)` +
            `${job.error ? `; last error: ${job.error}` : ''}.${waiting ? ` Waiting: ${waiting.reason}` : ''}\n\n${renderFields(job, JOB_DETAIL_FIELDS)}`;
          return { structured: job, text };
        },
      }),
      defineTool({
        name: 'job_timeline',
        title: 'Job timeline',
        description:
          'What happened to one job, in order: created (and by which key), every attempt — also those refused for rate that did not use an attempt (rate_limited) ' +
          'and those put off by a rule (deferred) —, rendered, sent, delivered/bounced/opened/clicked, audited actions (cancel, retry, send-test) with who did them; ' +
          'for a job still waiting, what holds it and until when (lane pause, its scheduled time, a retry, a deferral); ' +
          'and what was sent (`rendered`: the subject and body as rendered for the recipient, unless the project redacts content; operator keys see the subject only).',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({ id: jobIdArg }),
        output: z.object({
          job_id: z.string(),
          status: z.string(),
          created_by: z.string().nullable(),
          events: z.array(timelineEvent),
          waiting: jobWaiting,
          rendered: renderedContent,
        }),
        run: async ({ id }, context) => {
          const job = await this.jobs.get(id, context.project(undefined));
          const [audited, attempts, lanes, kept] = await Promise.all([
            this.db.rows<{ created_at: Date; action: string; actor: string }>(JOB_AUDIT_EVENTS, [
              job.projectId,
              job.id,
            ]),
            this.jobs.attempts(job.id),
            this.laneStates(job),
            this.jobs.renderedContent(job),
          ]);
          // Operator keys see the subject only, as in listings; the project's key reads its own content.
          const rendered = masked(context) ? { ...kept, body: null, body_html: null } : kept;
          const events = [
            ...rowEvents(job, attempts),
            ...renderedEvents(rendered),
            ...audited.map((a) => ({ at: a.created_at.toISOString(), event: a.action, detail: null, actor: a.actor })),
          ].sort((a, b) => a.at.localeCompare(b.at));
          const waiting = waitingReason(job, lanes);
          const lines = events.map(
            (e) => `${e.at} ${e.event}${e.detail ? `: ${e.detail}` : ''}${e.actor ? ` (by ${e.actor})` : ''}`,
          );
          if (waiting)
            lines.push(
              `WAITING (${waiting.holds}${waiting.until ? ` until ${waiting.until}` : ''}): ${waiting.reason}`,
            );
          return {
            structured: { job_id: job.id, status: job.status, created_by: job.createdBy, events, waiting, rendered },
            text: `Job ${job.id} is ${job.status}.\n${lines.join('\n')}\n${renderedText(rendered)}`,
          };
        },
      }),
      defineTool({
        name: 'retry_job',
        title: 'Retry a job',
        description:
          'Re-queue a failed or cancelled job with fresh attempts; it will be sent again. Fix the cause first (digest, get_job show it). Refused for other statuses.',
        annotations: SENDS_MESSAGE,
        audience: 'project',
        input: z.strictObject({ id: jobIdArg }),
        output: z.object({ id: z.string(), project_id: z.string(), channel: z.string(), status: z.string() }),
        run: async ({ id }, context) => {
          const job = await this.jobs.retry(id, context.project(undefined), context.actor);
          return {
            structured: { id: job.id, project_id: job.projectId, channel: job.channel, status: job.status },
            text: `Job ${job.id} is ${job.status} again; check it with get_job in a few seconds.`,
          };
        },
      }),
      defineTool({
        name: 'cancel_job',
        title: 'Cancel a job',
        description:
          'Cancel a pending or retry job so it is never sent. Refused once the job is processing or finished. retry_job can re-queue it later.',
        annotations: DESTRUCTIVE_WRITE,
        audience: 'project',
        input: z.strictObject({ id: jobIdArg }),
        output: z.object({ id: z.string(), cancelled: z.boolean() }),
        run: async ({ id }, context) => {
          await this.jobs.cancel(id, context.project(undefined), context.actor);
          return { structured: { id, cancelled: true }, text: `Job ${id} is cancelled.` };
        },
      }),
      defineTool({
        name: 'send_test',
        title: 'Send a test message',
        description:
          'Prove a channel works after a fix: sends one real message through a project’s channel at high priority, tagged category=test. ' +
          'Returns the job id; read the outcome with get_job a few seconds later.',
        annotations: SENDS_MESSAGE,
        audience: 'operator',
        input: z.strictObject({
          project_id: projectIdArg,
          channel: channelArg,
          to: z
            .string()
            .min(1)
            .max(2048)
            .describe('Address on that channel (email, E.164 phone, chat id, subscriber id for in_app/push)'),
          subject: z.string().max(998).optional().describe('Default "notifyd test"'),
          body: z.string().min(1).max(10_000).describe('Message text'),
        }),
        output: z.object({ id: z.string(), project_id: z.string(), channel: z.string(), status: z.string() }),
        run: async (args, context) => {
          const job = await this.jobs.sendTest(args, context.actor);
          return {
            structured: { id: job.id, project_id: job.projectId, channel: job.channel, status: 'pending' },
            text: `Test job ${job.id} queued on ${job.channel} for project ${job.projectId}; check its outcome with get_job.`,
          };
        },
      }),
    ];
  }
}
