/**
 * When a push call may still start a job. The dispatcher gives the whole call
 * WORKER_SEND_TIMEOUT_MS and counts every job of a call that overruns it as failed, pushed or
 * not (a retry would push twice), so a job starts only if its worst case ends in time: its
 * devices go out in waves of PUSH_FANOUT_CONCURRENCY, each request bounded by
 * OUTBOUND_TIMEOUT_MS, and the call still has to delete the dead devices it found after the
 * last job (one statement: the margin). The first wave of jobs always starts, whatever the
 * settings, so that a send timeout shorter than the outbound one cannot stop push altogether.
 */
export interface StartDeadlineSettings {
  sendTimeoutMs: number;
  outboundTimeoutMs: number;
  fanoutConcurrency: number;
  /** Jobs the call starts at once (WORKER_CONCURRENCY): the first wave. */
  concurrency: number;
}

/** Kept back for the work after the last job: at most 1 s, and a tenth of a short call. */
export function closingMarginMs(sendTimeoutMs: number): number {
  return Math.min(1_000, Math.floor(sendTimeoutMs / 10));
}

export class StartDeadline {
  private readonly deadline: number;
  private started = 0;

  constructor(
    private readonly settings: StartDeadlineSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.deadline = now() + settings.sendTimeoutMs - closingMarginMs(settings.sendTimeoutMs);
  }

  /** Whether a job of `devices` devices may start now; counts it as started when it may. */
  mayStart(devices: number): boolean {
    const waves = Math.max(1, Math.ceil(devices / this.settings.fanoutConcurrency));
    const firstWave = this.started < this.settings.concurrency;
    const may = firstWave || this.now() + waves * this.settings.outboundTimeoutMs <= this.deadline;
    if (may) this.started++;
    return may;
  }
}
