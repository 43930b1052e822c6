import { PERIOD_SECONDS } from './sql/window.sql.js';

const HOUR_MS = 3_600_000;
const PERIOD_MS = PERIOD_SECONDS * 1000;
const ceilTo = (t: number, step: number) => Math.ceil(t / step) * step;
const floorTo = (t: number, step: number) => Math.floor(t / step) * step;

/** Which parts of a window WINDOW_ROWS takes from the rollup and which from jobs. */
export interface WindowPlan {
  /** Rolled periods [firstPeriod, rolledEnd) come from the rollup, but for the dirty ones. */
  firstPeriod: Date;
  rolledEnd: Date;
  /** Dirty whole hours and dirty 5-minute periods inside [firstPeriod, rolledEnd): from jobs. */
  dirtyHours: Date[];
  dirtyPeriods: Date[];
  /** The range those dirty periods span (empty when there are none). */
  dirtyFrom: Date;
  dirtyTo: Date;
}

/**
 * Splits the window starting at `since` between the rollup and jobs, given the rollup's state
 * (whole hours before hoursThrough, 5-minute periods up to rolledThrough) and its dirty marks
 * (5-minute periods; one before hoursThrough stands for its hour). The first period starts at
 * `since` rounded up to the rollup's grain there, so jobs only answer for less than an hour
 * (less than 5 minutes in the open hours) at the start of the window, for what is not rolled
 * yet, and for the dirty periods.
 */
export function windowPlan(
  since: Date,
  hoursThrough: Date | null,
  rolledThrough: Date | null,
  dirty: readonly Date[],
): WindowPlan {
  const grain = hoursThrough && since >= hoursThrough ? PERIOD_MS : HOUR_MS;
  const firstPeriod = ceilTo(since.getTime(), grain);
  const rolledEnd = rolledThrough && rolledThrough.getTime() > firstPeriod ? rolledThrough.getTime() : firstPeriod;
  const hours = new Set<number>();
  const periods = new Set<number>();
  for (const mark of dirty) {
    const t = mark.getTime();
    if (hoursThrough && t < hoursThrough.getTime()) {
      const hour = floorTo(t, HOUR_MS);
      if (hour >= firstPeriod && hour < rolledEnd) hours.add(hour);
    } else if (t >= firstPeriod && t < rolledEnd) periods.add(t);
  }
  const spans = [...[...hours].map((h) => [h, h + HOUR_MS]), ...[...periods].map((p) => [p, p + PERIOD_MS])];
  const dirtyFrom = spans.length ? Math.min(...spans.map(([from]) => from)) : rolledEnd;
  // Past rolledEnd the jobs arm reads everything anyway.
  const dirtyTo = spans.length ? Math.min(rolledEnd, Math.max(...spans.map(([, to]) => to))) : rolledEnd;
  const dates = (set: Set<number>) => [...set].sort((a, b) => a - b).map((t) => new Date(t));
  return {
    firstPeriod: new Date(firstPeriod),
    rolledEnd: new Date(rolledEnd),
    dirtyHours: dates(hours),
    dirtyPeriods: dates(periods),
    dirtyFrom: new Date(dirtyFrom),
    dirtyTo: new Date(dirtyTo),
  };
}
