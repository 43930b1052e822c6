/** A per-recipient cap: at most maxMessages per subscriber per windowSeconds. */
export interface RecipientCap {
  id: string;
  projectId: string;
  /** A channel, or '*' for all channels together. */
  channel: string;
  /** A topic, or '*' for all messages whatever their topic. */
  topic: string;
  maxMessages: number;
  windowSeconds: number;
}

/** What a cap reads from a job (queued or claimed). */
export interface CappedJob {
  id: string;
  projectId: string;
  subscriberId: string | null;
  channel: string;
  topic: string | null;
}

export const usageKey = (capId: string, subscriberId: string) => `${capId}/${subscriberId}`;

export function capMatches(cap: RecipientCap, job: CappedJob): boolean {
  return (
    job.subscriberId !== null &&
    cap.projectId === job.projectId &&
    (cap.channel === '*' || cap.channel === job.channel) &&
    (cap.topic === '*' || cap.topic === job.topic)
  );
}

export function describeWindow(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} d`;
  if (seconds % 3_600 === 0) return `${seconds / 3_600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

export function capReason(cap: RecipientCap): string {
  const scope = `${cap.channel === '*' ? 'all channels' : cap.channel}${cap.topic === '*' ? '' : `, topic '${cap.topic}'`}`;
  return `recipient cap reached: at most ${cap.maxMessages} per ${describeWindow(cap.windowSeconds)} (${scope}; cap ${cap.id}); not sent`;
}

/**
 * Decides, in order, which jobs fit under their caps given what each subscriber already used
 * (`used`, by usageKey; absent = 0). A job must fit every cap that matches it; a job let
 * through counts against all of them, so later jobs of the same list see it. Returns the
 * reason for each job over a cap, and the jobs let through that some cap counts.
 */
export function allot(
  jobs: readonly CappedJob[],
  caps: readonly RecipientCap[],
  used: ReadonlyMap<string, number>,
): { over: Map<string, string>; counted: CappedJob[] } {
  const usage = new Map(used);
  const over = new Map<string, string>();
  const counted: CappedJob[] = [];
  for (const job of jobs) {
    const matching = caps.filter((c) => capMatches(c, job));
    if (matching.length === 0) continue;
    const full = matching.find((c) => (usage.get(usageKey(c.id, job.subscriberId!)) ?? 0) >= c.maxMessages);
    if (full) {
      over.set(job.id, capReason(full));
      continue;
    }
    for (const c of matching)
      usage.set(usageKey(c.id, job.subscriberId!), (usage.get(usageKey(c.id, job.subscriberId!)) ?? 0) + 1);
    counted.push(job);
  }
  return { over, counted };
}
