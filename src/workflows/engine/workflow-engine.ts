import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { inBatches } from '../../database/in-batches.js';
import { SignalsService } from '../../database/signals/signals.service.js';
import { PeriodicTasks } from '../../periodic/periodic-tasks.service.js';
import { QueueTableWorker } from '../../periodic/queue-table-worker.js';
import { runPool } from '../../jobs/worker/pool.js';
import type { ProjectRef } from '../../projects/project.types.js';
import { ProjectsService } from '../../projects/projects.service.js';
import { SubscribersService } from '../../subscribers/subscribers.service.js';
import type { ClaimedRun, ClaimedRunRow, RunUpdate } from '../workflow.types.js';
import type { WorkflowStep } from '../workflow-steps.js';
import { StaleRunError, WorkflowsRepository } from '../workflows.repository.js';
import { ENDED_IN_STEP, type PassFacts, RunExecutor } from './run-executor.js';
import { VersionStepsCache } from './version-steps-cache.js';

/** Signal topic: runs were started (any replica's engine may take them now). */
const DUE_TOPIC = 'workflows.due';
/** A run held longer than this by an engine that stopped answering is handed out again. */
const LEASE_SECONDS = 300;
/** Unexpected errors (database down…) are retried with backoff this many times, then the run fails. */
const MAX_ERRORS = 5;
/** Workflow versions no workflow or run reads any more, deleted per statement. */
const PRUNE_BATCH = 1_000;

/** Something besides the core that knows whether in-app messages were read (the inbox). */
export type InboxReadLookup = (projectId: string, jobIds: string[]) => Promise<boolean | null>;

/**
 * Resumes workflow runs in the worker role: claims due runs (SKIP LOCKED: any number of
 * replicas, each run on one), executes each from where it stands with bounded concurrency,
 * and records where every run of the batch stands in one statement. Sleeps until woken by a
 * trigger in this process or the poll interval (the bound on how late a delay resumes).
 */
@Injectable()
export class WorkflowEngine extends QueueTableWorker {
  private inboxRead: InboxReadLookup | undefined;
  private readonly versions = new VersionStepsCache();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: WorkflowsRepository,
    private readonly executor: RunExecutor,
    private readonly projects: ProjectsService,
    private readonly subscribers: SubscribersService,
    periodic: PeriodicTasks,
    signals: SignalsService,
  ) {
    super(
      {
        logName: 'Workflows',
        what: 'workflow round',
        topic: DUE_TOPIC,
        maintenanceTask: 'workflow-maintenance',
        table: repository,
        leaseSeconds: LEASE_SECONDS,
        retentionDays: config.workflows.retentionDays,
        batchSize: config.workflows.batchSize,
        pollIntervalMs: config.workflows.pollIntervalMs,
      },
      config.server.role,
      periodic,
      signals,
    );
  }

  protected claimRound(): Promise<number> {
    return this.round();
  }

  /** The inbox module tells conditions on `inbox.is_read` how to find out. */
  useInboxReadLookup(lookup: InboxReadLookup): void {
    this.inboxRead = lookup;
  }

  /** The reaper and the retention, then the versions no workflow or run reads any more (retention or not). */
  override async maintain(): Promise<void> {
    await super.maintain();
    await inBatches(PRUNE_BATCH, (batch) => this.repository.pruneVersions(batch));
  }

  /** Runs everything due now (tests, tools). Returns the number of passes made. */
  async drainOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.round();
      if (n === 0) return total;
      total += n;
    }
  }

  /** Claims one batch of due runs, executes them, records them. Returns how many were claimed. */
  async round(): Promise<number> {
    const claimed = await this.repository.claim(this.config.workflows.batchSize);
    if (claimed.length === 0) return 0;
    const runs = await this.withSteps(claimed);
    const facts = await this.facts(runs);
    const updates: RunUpdate[] = [];
    let started = false;
    const runStarted = () => {
      started = true;
    };
    await runPool(runs, this.config.workflows.concurrency, async (run) => {
      try {
        // A version is deleted only once no run reads it (foreign key): never expected.
        if (!run.steps) throw new Error(`workflow version ${run.versionId} of run ${run.id} is missing`);
        const update = await this.executor.execute(run as ClaimedRun, { ...facts(run), runStarted });
        if (update !== ENDED_IN_STEP) updates.push(update);
      } catch (err) {
        if (err instanceof StaleRunError) return;
        const errors = run.errors + 1;
        const message = (err as Error)?.message ?? String(err);
        this.logger.warn(`run ${run.id} of workflow ${run.workflowId} failed (${errors}/${MAX_ERRORS}): ${message}`);
        updates.push({
          id: run.id,
          attempts: run.attempts,
          status: errors >= MAX_ERRORS ? 'failed' : 'pending',
          currentStep: run.currentStep,
          runAt: new Date(Date.now() + Math.min(600_000, 5_000 * 2 ** errors)),
          context: run.context,
          history: run.history,
          outcome: errors >= MAX_ERRORS ? 'failed' : null,
          error: message,
          errors,
        });
      }
    });
    await this.repository.finalise(updates);
    // Runs started by trigger_workflow steps are committed: take them now, here or on another replica.
    if (started) this.wake();
    return runs.length;
  }

  /**
   * Each run with the steps it runs: its own copy (started before versions), else its version's,
   * from the cache or, for the versions of the batch not cached, one read.
   */
  private async withSteps(runs: ClaimedRunRow[]): Promise<ClaimedRunRow[]> {
    const missing = new Set<string>();
    for (const r of runs) if (!r.steps && r.versionId && !this.versions.get(r.versionId)) missing.add(r.versionId);
    const read = new Map<string, WorkflowStep[]>();
    if (missing.size)
      for (const v of await this.repository.versionSteps([...missing])) {
        read.set(v.id, v.steps);
        this.versions.set(v.id, v.steps, v.bytes);
      }
    return runs.map((r) =>
      r.steps || !r.versionId ? r : { ...r, steps: read.get(r.versionId) ?? this.versions.get(r.versionId) ?? null },
    );
  }

  /** Projects and subscribers of a batch, one lookup per project (not per run). */
  private async facts(runs: ClaimedRunRow[]): Promise<(run: ClaimedRunRow) => PassFacts> {
    const projects = new Map<string, ProjectRef | undefined>();
    const subscribers = new Map<string, Map<string, Record<string, unknown>>>();
    for (const projectId of new Set(runs.map((r) => r.projectId))) {
      // Jobs of a workflow's steps are recorded as queued by `workflow` (jobs.created_by).
      const project = await this.projects.get(projectId).catch(() => undefined);
      projects.set(projectId, project && { ...project, createdBy: 'workflow' });
      const ids = [...new Set(runs.filter((r) => r.projectId === projectId).map((r) => r.subscriberId))];
      const found = await this.subscribers.findAddresses(projectId, ids);
      subscribers.set(
        projectId,
        new Map(
          [...found].map(([id, s]) => [
            id,
            { id: s.id, email: s.email, phone: s.phone, locale: s.locale, timezone: s.timezone, data: s.data },
          ]),
        ),
      );
    }
    const inboxRead = this.inboxRead;
    return (run) => ({
      project: projects.get(run.projectId),
      subscriber: subscribers.get(run.projectId)?.get(run.subscriberId),
      inboxRead: inboxRead ? (jobIds) => inboxRead(run.projectId, jobIds) : undefined,
    });
  }
}
