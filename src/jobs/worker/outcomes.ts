import type { InboxDraft } from '../../connectors/in-app/inbox-draft.js';
import type { ClaimedJob } from './claimed-job.js';
import { retryDelayMs } from './retry-policy.js';

/** The outcomes of a claimed batch, grouped by kind, waiting for one set-based write per kind. */
export class Outcomes {
  sent: { id: string; attempts: number; provider: string; providerMessageId: string | null }[] = [];
  skipped: { id: string; attempts: number; reason: string }[] = [];
  retry: { id: string; attempts: number; provider: string | null; error: string; runAt: Date }[] = [];
  /** `bounced`: a synchronous hard bounce (the address will never work): ends the job bounced, not failed. */
  failed: { id: string; attempts: number; provider: string | null; error: string; bounced?: boolean }[] = [];
  /**
   * Back to the queue, attempt not consumed (rate-limited, paused lane, released at shutdown).
   * `rateLimited` marks a provider call refused for rate: the job's timeline shows it as an
   * attempt that did not count. With an error and without it, the job was put off (deferred).
   */
  requeue: {
    id: string;
    attempts: number;
    error: string | null;
    runAt: Date;
    rateLimited?: boolean;
    provider?: string;
  }[] = [];
  /**
   * Sent in-app jobs: marked sent and their inbox rows inserted in one statement. They are
   * sent jobs too (listeners counting deliveries read both lists); the inbox issue's stream
   * listens here for new messages.
   */
  inbox: { id: string; attempts: number; provider: string; projectId: string; message: InboxDraft }[] = [];

  /**
   * @param projectIds the projects of the claimed batch these outcomes belong to, so that a
   * listener can ask a per-project question once (e.g. "does anyone want job webhooks?")
   * instead of per job.
   */
  constructor(
    readonly projectIds: ReadonlySet<string>,
    /** The clock retry times are counted from (injectable for the rule's spec). */
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The one retry-or-fail rule for a failure worth another attempt: retried after the backoff
   * (at least `atLeastMs`, e.g. a provider's Retry-After), or failed for good once its attempts
   * are spent, saying so in the error.
   */
  retryOrFail(
    job: Pick<ClaimedJob, 'id' | 'attempts' | 'maxAttempts'>,
    provider: string | null,
    error: string,
    atLeastMs = 0,
  ): void {
    if (job.attempts >= job.maxAttempts) {
      this.failed.push({
        id: job.id,
        attempts: job.attempts,
        provider,
        error: `${error} (gave up after ${job.attempts} attempts)`,
      });
      return;
    }
    const delay = Math.max(retryDelayMs(job.attempts), atLeastMs);
    this.retry.push({ id: job.id, attempts: job.attempts, provider, error, runAt: new Date(this.now() + delay) });
  }

  /** Puts a job off, its attempt given back: to the queue again at `runAt`, `reason` as its error. */
  defer(job: Pick<ClaimedJob, 'id' | 'attempts'>, reason: string, runAt: Date): void {
    this.requeue.push({ id: job.id, attempts: job.attempts, error: reason, runAt });
  }

  get size(): number {
    return (
      this.sent.length +
      this.skipped.length +
      this.retry.length +
      this.failed.length +
      this.requeue.length +
      this.inbox.length
    );
  }

  /** Takes everything collected so far, leaving this empty. */
  drain(): Outcomes {
    const taken = new Outcomes(this.projectIds, this.now);
    for (const key of ['sent', 'skipped', 'retry', 'failed', 'requeue', 'inbox'] as const) {
      (taken[key] as unknown[]) = this[key];
      (this[key] as unknown[]) = [];
    }
    return taken;
  }
}
