import { Injectable, type OnModuleInit } from '@nestjs/common';
import { z } from 'zod';
import { Db } from '../../database/db.js';
import { JobsService } from '../../jobs/jobs.service.js';
import { McpToolRegistry } from '../mcp-tool-registry.js';
import { defineTool, DESTRUCTIVE_WRITE, READ_ONLY, SENDS_MESSAGE, type McpToolContext } from '../mcp-tool.js';
import { jobDetail, jobDetailView, jobSummaryView, renderedContent, renderedEvents, renderedText, rowEvents, timelineEvent } from './job-views.js';
import { channelArg, jobIdArg, jobStatusArg, jobSummary, projectIdArg } from './schemas.js';
import { JOB_AUDIT_EVENTS } from './sql/timeline.sql.js';

/** Operator keys see recipients masked; a project key reads its own data. */
const masked = (context: McpToolContext) => context.caller.role !== 'project';

/** Finding, reading and steering jobs: list_jobs, get_job, job_timeline, retry_job, cancel_job, send_test. */
@Injectable()
export class JobsTools implements OnModuleInit {
  constructor(
    private readonly registry: McpToolRegistry,
    private readonly jobs: JobsService,
    private readonly db: Db,
  ) {}

  onModuleInit(): void {
    this.registry.register(
      defineTool({
        name: 'list_jobs',
        title: 'List jobs',
        description:
          'Search jobs, newest first (default: the last 7 days, 50 rows). Filter by project_id, status (failed, retry… to investigate a finding), ' +
          'channel, recipient (exact, case-insensitive), topic and since. Recipients are masked for operator keys. Follow up with get_job or job_timeline.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({
          project_id: projectIdArg.optional(),
          status: jobStatusArg.optional(),
          channel: channelArg.optional(),
          recipient: z.string().min(1).max(2048).optional().describe('Exact recipient address, case-insensitive'),
          topic: z.string().regex(/^[a-z0-9_.:-]{1,64}$/, 'must be a topic id: 1–64 of a-z 0-9 - _ . :').optional(),
          since: z.iso.datetime({ offset: true, message: 'must be an RFC 3339 time such as 2026-11-29T00:00:00Z' }).optional().describe('Only jobs created since; default 7 days ago'),
          limit: z.number().int().min(1).max(500).default(50),
        }),
        output: z.object({ jobs: z.array(jobSummary), count: z.number() }),
        run: async (args, context) => {
          const rows = await this.jobs.search({ ...args, project_id: context.project(args.project_id) ?? undefined });
          const jobs = rows.map((row) => jobSummaryView(row, masked(context)));
          const counts = new Map<string, number>();
          for (const job of jobs) counts.set(job.status, (counts.get(job.status) ?? 0) + 1);
          const byStatus = [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
          return { structured: { jobs, count: jobs.length }, text: jobs.length ? `${jobs.length} job(s): ${byStatus}.` : 'No job matches these filters.' };
        },
      }),
      defineTool({
        name: 'get_job',
        title: 'Get a job',
        description: 'One job by id: status, attempts, provider and its message id, the last error, and every timestamp. Use job_timeline for the sequence of events.',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({ id: jobIdArg }),
        output: jobDetail,
        run: async ({ id }, context) => {
          const job = jobDetailView(await this.jobs.get(id, context.project(undefined)), masked(context));
          return { structured: job, text: `Job ${job.id} (${job.channel}, project ${job.project_id}) is ${job.status} after ${job.attempts}/${job.max_attempts} attempt(s)${job.error ? `; last error: ${job.error}` : ''}.` };
        },
      }),
      defineTool({
        name: 'job_timeline',
        title: 'Job timeline',
        description:
          'What happened to one job, in order: created, claimed, rendered, sent, delivered/bounced/opened/clicked, retries due, and audited actions (cancel, retry, send-test) with who did them; ' +
          'and what was sent (`rendered`: the subject and body as rendered for the recipient, unless the project redacts content; operator keys see the subject only).',
        annotations: READ_ONLY,
        audience: 'project',
        input: z.strictObject({ id: jobIdArg }),
        output: z.object({ job_id: z.string(), status: z.string(), events: z.array(timelineEvent), rendered: renderedContent }),
        run: async ({ id }, context) => {
          const job = await this.jobs.get(id, context.project(undefined));
          const [audited, kept] = await Promise.all([
            this.db.rows<{ created_at: Date; action: string; actor: string }>(JOB_AUDIT_EVENTS, [job.projectId, job.id]),
            this.jobs.renderedContent(job),
          ]);
          // Operator keys see the subject only, as in listings; the project's key reads its own content.
          const rendered = masked(context) ? { ...kept, body: null, body_html: null } : kept;
          const events = [...rowEvents(job), ...renderedEvents(rendered), ...audited.map((a) => ({ at: a.created_at.toISOString(), event: a.action, detail: null, actor: a.actor }))].sort((a, b) => a.at.localeCompare(b.at));
          const text = events.map((e) => `${e.at} ${e.event}${e.detail ? `: ${e.detail}` : ''}${e.actor ? ` (by ${e.actor})` : ''}`).join('\n');
          return { structured: { job_id: job.id, status: job.status, events, rendered }, text: `${text}\n${renderedText(rendered)}` };
        },
      }),
      defineTool({
        name: 'retry_job',
        title: 'Retry a job',
        description: 'Re-queue a failed or cancelled job with fresh attempts; it will be sent again. Fix the cause first (digest, get_job show it). Refused for other statuses.',
        annotations: SENDS_MESSAGE,
        audience: 'project',
        input: z.strictObject({ id: jobIdArg }),
        output: z.object({ id: z.string(), project_id: z.string(), channel: z.string(), status: z.string() }),
        run: async ({ id }, context) => {
          const job = await this.jobs.retry(id, context.project(undefined), context.actor);
          return { structured: { id: job.id, project_id: job.projectId, channel: job.channel, status: job.status }, text: `Job ${job.id} is ${job.status} again; check it with get_job in a few seconds.` };
        },
      }),
      defineTool({
        name: 'cancel_job',
        title: 'Cancel a job',
        description: 'Cancel a pending or retry job so it is never sent. Refused once the job is processing or finished. retry_job can re-queue it later.',
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
          to: z.string().min(1).max(2048).describe('Address on that channel (email, E.164 phone, chat id, subscriber id for in_app/push)'),
          subject: z.string().max(998).optional().describe('Default "notifyd test"'),
          body: z.string().min(1).max(10_000).describe('Message text'),
        }),
        output: z.object({ id: z.string(), project_id: z.string(), channel: z.string(), status: z.string() }),
        run: async (args, context) => {
          const job = await this.jobs.sendTest(args, context.actor);
          return { structured: { id: job.id, project_id: job.projectId, channel: job.channel, status: 'pending' }, text: `Test job ${job.id} queued on ${job.channel} for project ${job.projectId}; check its outcome with get_job.` };
        },
      }),
    );
  }
}
