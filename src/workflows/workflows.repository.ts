import { Injectable } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { Db } from '../database/db.js';
import * as runs from './sql/runs.sql.js';
import * as steps from './sql/steps.sql.js';
import * as workflows from './sql/workflows.sql.js';
import { MAX_DIGEST_ITEMS, MAX_DIGEST_ITEMS_BYTES, type WorkflowStep } from './workflow-steps.js';
import type {
  ClaimedRun,
  ClaimedRunRow,
  RunContext,
  RunRow,
  RunUpdate,
  WorkflowRow,
  HistoryEntry,
} from './workflow.types.js';

/** Where a run stands after a transactional step; `end` finishes it in the same transaction. */
export interface Progress {
  step: number;
  context: RunContext;
  history: HistoryEntry[];
  end?: { status: 'completed'; outcome: string };
}

export interface RunFilter {
  workflowId?: string;
  subscriberId?: string;
  status?: string;
  after?: { createdAt: string; id: string };
  limit: number;
}

/** All SQL of workflows: definitions, runs (a queue), digests and throttles. */
@Injectable()
export class WorkflowsRepository {
  constructor(private readonly db: Db) {}

  /** The workflow as stored, or undefined when it is new and the project has `max` workflows already. */
  upsert(
    projectId: string,
    w: {
      id: string;
      name: string;
      description: string | null;
      triggerEvent: string;
      steps: WorkflowStep[];
      enabled: boolean;
    },
    max: number,
  ): Promise<(WorkflowRow & { created: boolean }) | undefined> {
    return this.db.one(workflows.UPSERT_WORKFLOW, [
      projectId,
      w.id,
      w.name,
      w.description,
      w.triggerEvent,
      JSON.stringify(w.steps),
      w.enabled,
      max,
    ]);
  }

  find(projectId: string, id: string): Promise<WorkflowRow | undefined> {
    return this.db.one<WorkflowRow>(workflows.FIND_WORKFLOW, [projectId, id]);
  }

  list(projectId: string): Promise<WorkflowRow[]> {
    return this.db.rows<WorkflowRow>(workflows.LIST_WORKFLOWS, [projectId]);
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    return (await this.db.rows(workflows.DELETE_WORKFLOW, [projectId, id])).length > 0;
  }

  trigger(
    projectId: string,
    event: string,
    subscriberId: string,
    payload: Record<string, unknown>,
    idempotencyKey: string | null,
  ): Promise<{ id: string; workflowId: string; created: boolean }[]> {
    return this.db.rows(workflows.TRIGGER, [projectId, event, subscriberId, JSON.stringify(payload), idempotencyKey]);
  }

  /** A trigger_workflow step's run; undefined when the workflow is gone or disabled. */
  triggerFromStep(
    projectId: string,
    workflowId: string,
    subscriberId: string,
    payload: Record<string, unknown>,
    idempotencyKey: string,
    context: RunContext,
  ): Promise<{ id: string; created: boolean } | undefined> {
    return this.db.one(workflows.TRIGGER_FROM_STEP, [
      projectId,
      workflowId,
      subscriberId,
      JSON.stringify(payload),
      idempotencyKey,
      JSON.stringify(context),
    ]);
  }

  claim(limit: number): Promise<ClaimedRunRow[]> {
    return this.db.rows<ClaimedRunRow>(runs.CLAIM_RUNS, [limit]);
  }

  /** The steps of these versions (absent: no such version), with the size of each as JSON text. */
  versionSteps(ids: string[]): Promise<{ id: string; steps: WorkflowStep[]; bytes: number }[]> {
    return this.db.rows(runs.VERSION_STEPS, [ids]);
  }

  async finalise(updates: RunUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    const byId: Record<string, object> = {};
    for (const u of updates) {
      byId[u.id] = {
        a: u.attempts,
        s: u.status,
        i: u.currentStep,
        t: u.runAt?.toISOString() ?? null,
        c: u.context,
        h: u.history,
        o: u.outcome,
        e: u.error,
        n: u.errors,
      };
    }
    await this.db.exec(runs.FINALISE_RUNS, [updates.map((u) => u.id), byId]);
  }

  /** Runs fn in a transaction; it commits only if the run's claim still holds after fn's writes. */
  async withProgress<T>(
    run: ClaimedRun,
    fn: (runner: QueryRunner) => Promise<T>,
    progress: (value: T) => Progress,
  ): Promise<T> {
    return this.db.transaction(async (runner) => {
      const value = await fn(runner);
      const p = progress(value);
      const saved = await this.db.exec(
        runs.SAVE_PROGRESS,
        [
          run.id,
          run.attempts,
          p.step,
          JSON.stringify(p.context),
          JSON.stringify(p.history),
          p.end?.status ?? null,
          p.end?.outcome ?? null,
        ],
        runner,
      );
      if (saved !== 1) throw new StaleRunError(run.id);
      return value;
    });
  }

  async throttleHit(
    runner: QueryRunner,
    r: ClaimedRun,
    step: number,
    key: string,
    windowSecs: number,
  ): Promise<number> {
    const row = await this.db.one<{ count: number }>(
      steps.THROTTLE_HIT,
      [r.projectId, r.workflowId, step, r.subscriberId, key, windowSecs],
      runner,
    );
    return row!.count;
  }

  async joinDigest(
    runner: QueryRunner,
    r: ClaimedRun,
    step: number,
    key: string,
    windowSecs: number,
  ): Promise<{ id: string; leaderRunId: string; closesAt: Date }> {
    return (await this.db.one(
      steps.JOIN_DIGEST,
      [r.projectId, r.workflowId, step, r.subscriberId, key, r.id, windowSecs, JSON.stringify(r.payload)],
      runner,
    ))!;
  }

  /**
   * Closes the digest and reads its items, in that order, in one transaction (see CLOSE_DIGEST):
   * the first MAX_DIGEST_ITEMS that fit in MAX_DIGEST_ITEMS_BYTES, and the count of all.
   */
  closeDigest(digestId: string): Promise<{ items: Record<string, unknown>[]; count: number }> {
    return this.db.transaction(async (runner) => {
      await this.db.exec(steps.CLOSE_DIGEST, [digestId], runner);
      const items = (
        await this.db.rows<{ payload: Record<string, unknown> }>(
          steps.DIGEST_ITEMS,
          [digestId, MAX_DIGEST_ITEMS, MAX_DIGEST_ITEMS_BYTES],
          runner,
        )
      ).map((r) => r.payload);
      const counted = await this.db.one<{ count: number }>(steps.DIGEST_ITEM_COUNT, [digestId], runner);
      return { items, count: counted?.count ?? items.length };
    });
  }

  reap(leaseSeconds: number, limit: number): Promise<number> {
    return this.db.exec(runs.REAP_RUNS, [leaseSeconds, limit]);
  }

  /**
   * Retention: finished runs, closed digests (with their items) and spent throttle counters,
   * each statement at most `limit` rows. Returns the most any one deleted, so the maintenance
   * loop goes on while one of them filled its batch.
   */
  async purge(before: Date, limit: number): Promise<number> {
    const purgedRuns = await this.db.exec(runs.PURGE_RUNS, [before, limit]);
    const purgedDigests = await this.db.exec(steps.PURGE_DIGESTS, [before, limit]);
    const purgedThrottles = await this.db.exec(steps.PURGE_THROTTLES, [before, limit]);
    return Math.max(purgedRuns, purgedDigests, purgedThrottles);
  }

  /** Deletes at most `limit` versions that are not current and that no run reads; returns how many. */
  pruneVersions(limit: number): Promise<number> {
    return this.db.exec(runs.PRUNE_VERSIONS, [limit]);
  }

  listRuns(projectId: string, f: RunFilter): Promise<RunRow[]> {
    return this.db.rows<RunRow>(runs.LIST_RUNS, [
      projectId,
      f.workflowId ?? null,
      f.subscriberId ?? null,
      f.status ?? null,
      f.after?.createdAt ?? null,
      f.after?.id ?? null,
      f.limit,
    ]);
  }

  findRun(projectId: string, id: string): Promise<RunRow | undefined> {
    return this.db.one<RunRow>(runs.FIND_RUN, [id, projectId]);
  }

  cancelRun(projectId: string, id: string): Promise<{ id: string; digestsCancelled: number } | undefined> {
    return this.db.one(runs.CANCEL_RUN, [id, projectId]);
  }
}

/** The run was cancelled or reaped while this engine held it: drop this pass. */
export class StaleRunError extends Error {
  constructor(runId: string) {
    super(`run ${runId} is no longer held by this engine (cancelled or reaped)`);
    this.name = 'StaleRunError';
  }
}
