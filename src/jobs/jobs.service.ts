import { Injectable } from '@nestjs/common';
import type { Channel } from '../domain/channels.js';
import { AuditService } from '../audit/audit.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { decodeTimeIdCursor } from '../common/pagination/cursor.js';
import { type CursorPage, timeIdPage } from '../common/pagination/cursor-page.js';
import { escapeHtml } from '../common/html/escape-html.js';
import type { Actor } from '../domain/actor.js';
import { ProjectsService } from '../projects/projects.service.js';
import type { AdminJobSearchQueryDto, JobDto, RenderedContentDto, SendTestRequestDto } from './dto/job.dto.js';
import { presentJob } from './job.presenter.js';
import { JobContentsRepository } from './content/job-contents.repository.js';
import { redactsContent, renderedView } from './content/rendered-view.js';
import type { JobAttempt, JobRow } from '../domain/job.types.js';
import { AdmissionService } from './admission/admission.service.js';
import { type JobSearch, JobsRepository } from './jobs.repository.js';
import { PRIORITY_NAMES } from '../domain/priority.js';
import { WorkerWakeup } from './worker/worker-wakeup.js';
import { isUuid } from '../domain/ids.js';

/** Job ids are UUIDs; anything else is a caller's mistake worth naming, not a 404. */
export function assertJobId(id: string): void {
  if (!isUuid(id))
    throw ApiError.badRequest(
      'invalid_id',
      `'${id.slice(0, 60)}' is not a job id: job ids are UUIDs such as 6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f.`,
    );
}

/**
 * Reading and steering existing jobs. `projectId` scopes every call to the caller's project;
 * null means an operator acting across projects.
 */
@Injectable()
export class JobsService {
  constructor(
    private readonly jobs: JobsRepository,
    private readonly projects: ProjectsService,
    private readonly audit: AuditService,
    private readonly wakeup: WorkerWakeup,
    private readonly admission: AdmissionService,
    private readonly contents: JobContentsRepository,
  ) {}

  async get(id: string, projectId: string | null): Promise<JobRow> {
    assertJobId(id);
    const job = await this.jobs.find(id, projectId);
    if (!job) throw ApiError.notFound('Job', id);
    return job;
  }

  /** What the job sent (or will): its kept rendering, its own fields, or redacted by its project's setting. */
  async renderedContent(job: JobRow): Promise<RenderedContentDto> {
    const [stored, project] = await Promise.all([
      this.contents.find(job.id),
      this.projects.get(job.projectId).catch(() => undefined),
    ]);
    return renderedView(job, stored, redactsContent(project?.settings));
  }

  /** The job's attempts that did not end in a send, oldest first (call after get(): no project check here). */
  attempts(jobId: string): Promise<JobAttempt[]> {
    return this.jobs.attempts(jobId);
  }

  /** A job as the detail routes show it: with its provider evidence (oldest first), what it sent and its attempt log. */
  async detail(job: JobRow): Promise<JobDto> {
    const [events, rendered, attempts] = await Promise.all([
      this.jobs.providerEvents(job.id),
      this.renderedContent(job),
      this.jobs.attempts(job.id),
    ]);
    return presentJob(job, events, rendered, attempts);
  }

  async cancel(id: string, projectId: string | null, by: Actor): Promise<void> {
    assertJobId(id);
    if (!(await this.jobs.cancel(id, projectId))) {
      const job = await this.jobs.find(id, projectId);
      if (!job) throw ApiError.notFound('Job', id);
      throw ApiError.conflict('not_cancellable', `Job is ${job.status}; only pending or retry jobs can be cancelled.`, {
        status: job.status,
      });
    }
    await this.audit.record({ ...by, projectId, action: 'job.cancelled', resource: id });
  }

  async retry(
    id: string,
    projectId: string | null,
    by: Actor,
  ): Promise<{ id: string; projectId: string; channel: string; status: string }> {
    assertJobId(id);
    const result = await this.jobs.retry(id, projectId);
    if (result === 'key_taken') {
      throw ApiError.conflict(
        'idempotency_key_in_use',
        'A newer job holds this job’s idempotency key; retrying would send the message twice.',
      );
    }
    if (!result) {
      const job = await this.jobs.find(id, projectId);
      if (!job) throw ApiError.notFound('Job', id);
      throw ApiError.conflict('not_retryable', `Job is ${job.status}; only failed or cancelled jobs can be retried.`, {
        status: job.status,
      });
    }
    this.wakeup.jobsDue([result.channel]);
    await this.audit.record({ ...by, projectId: result.projectId, action: 'job.retried', resource: id });
    return result;
  }

  search(query: AdminJobSearchQueryDto): Promise<JobRow[]> {
    return this.jobs.search(searchOf(query, query.limit ?? 50));
  }

  /**
   * One page of the search and the cursor of the next (null on the last page): one row more
   * than asked is read to know whether another page follows.
   */
  async searchPage(query: AdminJobSearchQueryDto): Promise<CursorPage<JobRow>> {
    const limit = query.limit ?? 50;
    return timeIdPage(await this.jobs.search(searchOf(query, limit + 1)), limit);
  }

  /** Operators prove a channel works: one real message at high priority, tagged category=test. */
  async sendTest(dto: SendTestRequestDto, by: Actor): Promise<{ id: string; projectId: string; channel: string }> {
    const channel = dto.channel as Channel;
    const project = await this.projects.getNamed(dto.project_id);
    const body = dto.body ?? 'notifyd test message';
    // Through the admission pipeline like any send: the address is checked at the door and a
    // suppression still applies; preferences do not (an operator's test is not a campaign).
    const { targets } = await this.admission.admit({
      project: { ...project, createdBy: by.actor },
      channels: [channel],
      audience: { kind: 'one', to: dto.to },
      payload: {
        subject: dto.subject ?? 'notifyd test',
        body,
        body_html: `<p>${escapeHtml(body)}</p>`,
        tags: [{ name: 'category', value: 'test' }],
        sms: null,
        marketing: false,
        transactional: true,
      },
      priority: PRIORITY_NAMES.high,
      marketing: false,
      requestedAt: new Date(),
      idempotencyKey: null,
      templateId: null,
      topic: null,
      unconfiguredChannels: 'refuse',
    });
    const [target] = targets;
    if (!target.jobId)
      throw ApiError.unprocessable(
        target.skip!.rule === 'invalid_address' ? 'invalid_recipient' : target.skip!.rule,
        `Nothing was queued (to): ${target.skip!.reason}.`,
      );
    const row = { id: target.jobId };

    await this.audit.record({
      ...by,
      projectId: dto.project_id,
      action: 'job.send_test',
      resource: row.id,
      metadata: { channel },
    });
    return { id: row.id, projectId: dto.project_id, channel };
  }
}

function searchOf(query: AdminJobSearchQueryDto, limit: number): JobSearch {
  return {
    projectId: query.project_id,
    status: query.status,
    channel: query.channel,
    recipient: query.recipient,
    recipientDomain: query.recipient_domain,
    topic: query.topic,
    createdBy: query.created_by,
    since: query.since ? new Date(query.since) : new Date(Date.now() - 7 * 24 * 3600 * 1000),
    limit,
    after: query.cursor ? decodeTimeIdCursor(query.cursor) : undefined,
  };
}
