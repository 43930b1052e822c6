import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error.js';
import type { SendRequestDto } from '../../jobs/dto/send.dto.js';
import { EnqueueService } from '../../jobs/enqueue.service.js';
import type { ProjectRef } from '../../projects/project.types.js';
import { type ConditionScope, evaluate, resolveField } from '../workflow-conditions.js';
import {
  type DigestStep,
  MAX_TRIGGER_DEPTH,
  MAX_TRIGGERED_RUNS,
  type SendStep,
  type ThrottleStep,
  type TriggerWorkflowStep,
} from '../workflow-steps.js';
import type { ClaimedRun, HistoryEntry, RunContext, RunUpdate } from '../workflow.types.js';
import { WorkflowsRepository } from '../workflows.repository.js';
import { delayUntil } from './delay-until.js';
import { flattenVars } from './flatten-vars.js';

/** A condition or branch that loops without a delay stops here instead of spinning. */
const MAX_STEPS_PER_PASS = 100;
/**
 * History entries a run keeps from its earlier passes (the newest). A workflow that jumps back
 * over a delay may run for ever, two entries a pass; unbounded, its history would make every
 * claim and finalise of the run heavier until the row broke. A workflow without a loop visits
 * each of its at most 50 steps once, so it loses nothing. Stored: at most this plus one pass.
 */
export const RUN_HISTORY_KEPT = 100;

/**
 * Longest throttle or digest key stored as it is. The key is a payload value and is part of a
 * btree primary or unique index, which refuses a row over ~2.7 kB: a longer key failed the step
 * at every retry. Longer keys are stored as their SHA-256, so distinct keys stay distinct.
 */
const MAX_STEP_KEY_CHARS = 200;

/** The throttle or digest key a run's step reads (empty without `key`), bounded for its index. */
function stepKey(scope: ConditionScope, field: string | undefined): string {
  const key = field ? String(resolveField(scope, field) ?? '') : '';
  return key.length > MAX_STEP_KEY_CHARS ? `sha256:${createHash('sha256').update(key).digest('hex')}` : key;
}

/** What a pass needs besides the run: the project (to enqueue) and facts for conditions. */
export interface PassFacts {
  project: ProjectRef | undefined;
  subscriber: Record<string, unknown> | undefined;
  /** Whether the in-app message of given jobs was read (inbox.is_read); undefined when unknown. */
  inboxRead?: (jobIds: string[]) => Promise<boolean | null>;
  /** Told when a trigger_workflow step started a run, so the engines look for it at once. */
  runStarted?: () => void;
}

/** A pass ended by a step's own transaction (throttled, merged into a digest): nothing left to write. */
export const ENDED_IN_STEP = 'ended-in-step' as const;

/**
 * Runs the steps of one claimed run from where it stands until it waits (delay, digest window),
 * ends, or fails. Sends go through EnqueueService with an idempotency key per run × step ×
 * visit, so a step retried after a crash queues its message once. Throttle and digest write
 * their side effect and the run's progress in one transaction fenced by the claim.
 */
@Injectable()
export class RunExecutor {
  constructor(
    private readonly repository: WorkflowsRepository,
    private readonly enqueue: EnqueueService,
  ) {}

  async execute(run: ClaimedRun, facts: PassFacts): Promise<RunUpdate | typeof ENDED_IN_STEP> {
    const history: HistoryEntry[] = run.history.slice(-RUN_HISTORY_KEPT);
    const context: RunContext = { ...run.context, visits: { ...(run.context.visits ?? {}) } };
    const steps = run.steps;
    const at = () => new Date().toISOString();
    const result = (status: RunUpdate['status'], step: number, extra: Partial<RunUpdate> = {}): RunUpdate => ({
      id: run.id,
      attempts: run.attempts,
      status,
      currentStep: step,
      runAt: null,
      context,
      history,
      outcome: null,
      error: null,
      errors: run.errors,
      ...extra,
    });
    const scope = async (): Promise<ConditionScope> => ({
      payload: run.payload,
      subscriber: facts.subscriber,
      digest: context.digestItems !== undefined ? { item_count: context.digestItems } : undefined,
      inbox:
        facts.inboxRead && context.lastJobIds?.length
          ? { is_read: await facts.inboxRead(context.lastJobIds) }
          : undefined,
    });

    let i = run.currentStep;
    for (let executed = 0; i < steps.length; executed++) {
      if (executed >= MAX_STEPS_PER_PASS) {
        return result('failed', i, {
          error: `more than ${MAX_STEPS_PER_PASS} steps in one pass: a condition or branch loops without a delay`,
        });
      }
      const step = steps[i];
      switch (step.type) {
        case 'send': {
          const jobIds = await this.send(run, facts, context, i, step, {});
          history.push({ step: i, type: 'send', at: at(), ...jobIds });
          i++;
          break;
        }
        case 'delay': {
          history.push({ step: i, type: 'delay', at: at(), result: 'waiting', detail: `${step.duration_secs} s` });
          return result('waiting', i + 1, { runAt: new Date(Date.now() + step.duration_secs * 1000) });
        }
        case 'delay_until': {
          const until = delayUntil(step, await scope(), new Date());
          if ('error' in until) {
            history.push({ step: i, type: 'delay_until', at: at(), result: 'failed', detail: until.error });
            return result('failed', i, { outcome: 'failed', error: until.error });
          }
          if (until.at.getTime() <= Date.now()) {
            history.push({
              step: i,
              type: 'delay_until',
              at: at(),
              result: 'passed',
              detail: `${until.at.toISOString()} had passed`,
            });
            i++;
            break;
          }
          history.push({
            step: i,
            type: 'delay_until',
            at: at(),
            result: 'waiting',
            detail: `until ${until.at.toISOString()}`,
          });
          return result('waiting', i + 1, { runAt: until.at });
        }
        case 'trigger_workflow': {
          const started = await this.triggerWorkflow(run, facts, context, i, step, await scope());
          history.push({ step: i, type: 'trigger_workflow', at: at(), ...started });
          if (started.result === 'failed')
            return result('failed', i, { outcome: 'failed', error: started.detail ?? null });
          i++;
          break;
        }
        case 'condition': {
          const holds = evaluate(step, await scope());
          history.push({ step: i, type: 'condition', at: at(), result: String(holds) });
          i = (holds ? step.on_true : step.on_false) ?? i + 1;
          break;
        }
        case 'branch': {
          const s = await scope();
          const taken = step.branches.findIndex((b) => b.conditions.every((c) => evaluate(c, s)));
          history.push({ step: i, type: 'branch', at: at(), result: taken < 0 ? 'default' : `branch ${taken}` });
          i = taken < 0 ? (step.default_next ?? i + 1) : step.branches[taken].next;
          break;
        }
        case 'throttle': {
          const passed = await this.throttle(run, context, history, i, step, await scope());
          if (!passed) return ENDED_IN_STEP;
          i++;
          break;
        }
        case 'digest': {
          if (context.digest?.step === i) {
            // This run opened the digest: close it when its window ends and send one message.
            if (new Date(context.digest.closesAt) > new Date())
              return result('waiting', i, { runAt: new Date(context.digest.closesAt) });
            const { items, count } = await this.repository.closeDigest(context.digest.id);
            const sent = await this.send(run, facts, context, i, step, { items, item_count: count });
            history.push({
              step: i,
              type: 'digest',
              at: at(),
              ...sent,
              result: sent.result === 'sent' ? 'closed' : sent.result,
              detail: `${count} item(s)${count > items.length ? ` (the first ${items.length} in {{items}})` : ''}${sent.detail ? `; ${sent.detail}` : ''}`,
            });
            context.digestItems = count;
            delete context.digest;
            i++;
            break;
          }
          const joined = await this.joinDigest(run, context, history, i, step, await scope());
          if (joined === 'follower') return ENDED_IN_STEP;
          return result('waiting', i, { runAt: new Date(context.digest!.closesAt) });
        }
      }
    }
    return result('completed', steps.length, { outcome: 'completed' });
  }

  /**
   * Queues the step's message for the run's subscriber. The idempotency key names the run, the
   * step and how many times this run has visited it (persisted with the run), so a retried pass
   * dedupes while a workflow that loops back after a delay sends again.
   */
  private async send(
    run: ClaimedRun,
    facts: PassFacts,
    context: RunContext,
    i: number,
    step: SendStep | DigestStep,
    extraVars: Record<string, unknown>,
  ): Promise<Pick<HistoryEntry, 'result' | 'job_ids' | 'detail'>> {
    const visits = context.visits!;
    visits[i] = (visits[i] ?? 0) + 1;
    if (!facts.project) return { result: 'skipped', detail: 'the project no longer exists' };
    const vars = {
      ...flattenVars(run.payload),
      ...extraVars,
      subscriber_id: run.subscriberId,
      workflow_id: run.workflowId,
      run_id: run.id,
    };
    const request = {
      channels: [step.channel],
      subscriber_id: run.subscriberId,
      template: step.template_id,
      subject: step.subject,
      body: step.body,
      body_html: step.body_html,
      icon: step.icon,
      url: step.url,
      priority: step.priority,
      vars,
      idempotency_key: `wf-${run.id}-${i}-${visits[i]}`,
    } as SendRequestDto;
    try {
      const response = await this.enqueue.send(facts.project, request);
      context.lastJobIds = response.job_ids;
      if (response.job_ids.length) return { result: 'sent', job_ids: response.job_ids };
      return {
        result: 'skipped',
        detail: response.skipped.map((s) => `${s.channel}: ${s.reason}`).join('; ') || 'nothing queued',
      };
    } catch (err) {
      // The request was refused (channel not configured…): the step is skipped, the run goes on.
      if (err instanceof ApiError)
        return { result: 'skipped', detail: (err.getResponse() as { message?: string }).message ?? err.message };
      throw err;
    }
  }

  /**
   * Starts a run of another workflow for the same subscriber, with the trigger's payload or the
   * mapped part of it. The idempotency key names this run, step and visit (as a send's does), so
   * a pass retried after a crash finds the run it started instead of starting a second. Runs
   * started this way are counted one inside the other: past MAX_TRIGGER_DEPTH the step fails the
   * run — a loop the definition checks could not see (a workflow edited since) stops there.
   */
  private async triggerWorkflow(
    run: ClaimedRun,
    facts: PassFacts,
    context: RunContext,
    i: number,
    step: TriggerWorkflowStep,
    scope: ConditionScope,
  ): Promise<Pick<HistoryEntry, 'result' | 'run_id' | 'detail'>> {
    const visits = context.visits!;
    visits[i] = (visits[i] ?? 0) + 1;
    const depth = (context.depth ?? 0) + 1;
    if (depth > MAX_TRIGGER_DEPTH) {
      return {
        result: 'failed',
        detail: `trigger_workflow: ${MAX_TRIGGER_DEPTH} runs already started one inside the other above this one; not starting ${step.workflow_id} (a loop between workflows?)`,
      };
    }
    const budget = context.triggerBudget ?? MAX_TRIGGERED_RUNS;
    if (budget < 1) {
      return {
        result: 'failed',
        detail: `trigger_workflow: the runs of this trigger have started ${MAX_TRIGGERED_RUNS} runs already; not starting ${step.workflow_id} (fewer trigger_workflow steps, or send from this workflow)`,
      };
    }
    // The child gets half of what is left after itself; this run keeps the rest for its later steps.
    const childBudget = Math.floor((budget - 1) / 2);
    context.triggerBudget = budget - 1 - childBudget;
    const payload = step.payload_map
      ? Object.fromEntries(
          Object.entries(step.payload_map).map(([key, field]) => [key, resolveField(scope, field) ?? null]),
        )
      : run.payload;
    const child = await this.repository.triggerFromStep(
      run.projectId,
      step.workflow_id,
      run.subscriberId,
      payload,
      `wf-${run.id}-${i}-${visits[i]}`,
      {
        depth,
        parent: { run_id: run.id, workflow_id: run.workflowId },
        triggerBudget: childBudget,
      },
    );
    if (!child) return { result: 'skipped', detail: `workflow ${step.workflow_id} no longer exists or is disabled` };
    if (child.created) facts.runStarted?.();
    return { result: 'started', run_id: child.id, detail: `workflow ${step.workflow_id}` };
  }

  /** Counts this run in the throttle window; over the limit the run ends here, in the same transaction. */
  private throttle(
    run: ClaimedRun,
    context: RunContext,
    history: HistoryEntry[],
    i: number,
    step: ThrottleStep,
    scope: ConditionScope,
  ): Promise<boolean> {
    const key = stepKey(scope, step.key);
    return this.repository.withProgress(
      run,
      (runner) =>
        this.repository.throttleHit(runner, run, i, key, step.window_secs).then((count) => count <= step.limit),
      (passed) => {
        history.push({
          step: i,
          type: 'throttle',
          at: new Date().toISOString(),
          result: passed ? 'passed' : 'throttled',
          detail: `limit ${step.limit} per ${step.window_secs} s`,
        });
        return passed
          ? { step: i + 1, context, history }
          : { step: i, context, history, end: { status: 'completed', outcome: 'throttled' } };
      },
    );
  }

  /**
   * Joins the open digest of the run's key, or opens it. The opener leads: it waits for the
   * window and sends. A follower's event is now an item of the leader's digest; its run ends
   * here, in the same transaction as the join.
   */
  private async joinDigest(
    run: ClaimedRun,
    context: RunContext,
    history: HistoryEntry[],
    i: number,
    step: DigestStep,
    scope: ConditionScope,
  ): Promise<'leader' | 'follower'> {
    const key = stepKey(scope, step.key);
    const digest = await this.repository.withProgress(
      run,
      (runner) => this.repository.joinDigest(runner, run, i, key, step.window_secs),
      (d) => {
        const leader = d.leaderRunId === run.id;
        history.push({
          step: i,
          type: 'digest',
          at: new Date().toISOString(),
          result: leader ? 'opened' : 'joined',
          detail: leader ? `closes at ${new Date(d.closesAt).toISOString()}` : `digest of run ${d.leaderRunId}`,
        });
        if (leader) {
          context.digest = { id: d.id, step: i, closesAt: new Date(d.closesAt).toISOString() };
          return { step: i, context, history };
        }
        return {
          step: i,
          context,
          history,
          end: { status: 'completed', outcome: `digested into run ${d.leaderRunId}` },
        };
      },
    );
    return digest.leaderRunId === run.id ? 'leader' : 'follower';
  }
}
