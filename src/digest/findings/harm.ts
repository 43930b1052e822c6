import type { DigestFacts, Harm, LaneRowView, Severity } from '../digest.types.js';

/** A lost message weighs as much as one held this long: losing is worse than waiting. */
export const LOST_WEIGHT_SECONDS = 3_600;
/** Live trouble is critical once it has held messages this long … */
export const HARM_CRITICAL_SECONDS = 900;
/** … and it is wide: this many messages held, or this many projects. */
export const HARM_CRITICAL_MESSAGES = 100;
export const HARM_CRITICAL_PROJECTS = 2;
/** Below these (messages, seconds held) and within one project, live trouble is only info. */
export const HARM_WARNING_MESSAGES = 10;
export const HARM_WARNING_SECONDS = 300;

/**
 * What a problem costs, as one number to rank findings of one severity: message-minutes of
 * delay (each held message times how long the oldest has waited, at least a minute), a lost
 * message counting as an hour of delay, times the projects affected. Bigger first.
 */
export function harmScore(h: Harm): number {
  const minutes = Math.max(1, (h.seconds ?? 0) / 60);
  return (h.held * minutes + (h.lost * LOST_WEIGHT_SECONDS) / 60) * Math.max(1, h.projects);
}

/**
 * The severity of something failing now, from what it does to people rather than from its
 * kind: critical when it has held messages for 15 minutes or more and is wide (100 messages
 * or more, or two projects or more); warning while it holds or loses anything beyond a few
 * messages for a few minutes in one project; info below that.
 */
export function harmSeverity(h: Harm): Severity {
  const seconds = h.seconds ?? 0;
  if (
    h.held > 0 &&
    seconds >= HARM_CRITICAL_SECONDS &&
    (h.held >= HARM_CRITICAL_MESSAGES || h.projects >= HARM_CRITICAL_PROJECTS)
  )
    return 'critical';
  if (h.lost > 0) return 'warning';
  if (
    h.held > 0 &&
    (h.held >= HARM_WARNING_MESSAGES || seconds >= HARM_WARNING_SECONDS || h.projects >= HARM_CRITICAL_PROJECTS)
  )
    return 'warning';
  return 'info';
}

/** Every late message in the queue: what a missing worker holds. */
export function queueHarm(facts: DigestFacts): Harm {
  const projects = new Set(
    facts.waiting.flatMap((w) => w.by_project.filter((p) => p.late > 0).map((p) => p.project_id)),
  );
  const oldest = Object.values(facts.queue.oldest_waiting_seconds).reduce<number | null>(
    (m, s) => (s === null ? m : Math.max(m ?? 0, s)),
    null,
  );
  return {
    held: facts.queue.late,
    lost: 0,
    // The per-project lists are capped; a channel's own count is exact.
    projects: Math.max(projects.size, ...facts.waiting.map((w) => w.projects_late), 0),
    channels: facts.waiting.filter((w) => w.late > 0).map((w) => w.channel),
    seconds: oldest,
  };
}

/** The late messages a lane holds: its channel's, or one project's on a project lane. */
export function laneHarm(lane: LaneRowView, facts: DigestFacts): Harm {
  const channel = facts.waiting.find((w) => w.channel === lane.channel);
  if (!channel) return { held: 0, lost: 0, projects: 0, channels: [lane.channel], seconds: null };
  if (lane.project_id) {
    const p = channel.by_project.find((x) => x.project_id === lane.project_id);
    return {
      held: p?.late ?? 0,
      lost: 0,
      projects: p && p.late > 0 ? 1 : 0,
      channels: [lane.channel],
      seconds: p?.oldest_late_seconds ?? null,
    };
  }
  return {
    held: channel.late,
    lost: 0,
    projects: channel.projects_late,
    channels: [lane.channel],
    seconds: channel.oldest_late_seconds,
  };
}

/** "37 message(s) of 4 project(s) held for 12 min" — the harm in words for a finding's message. */
export function describeHeld(h: Harm): string {
  if (h.held === 0) return 'no message is late yet';
  const since = h.seconds === null ? '' : ` for ${duration(h.seconds)}`;
  return `${h.held} message(s) of ${h.projects} project(s) late${since}`;
}

export function duration(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7_200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 360) / 10} h`;
}
