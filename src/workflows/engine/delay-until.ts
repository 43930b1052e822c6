import { isRfc3339 } from '../../common/validation/rfc3339.js';
import { type ConditionScope, resolveField } from '../workflow-conditions.js';
import { MAX_DELAY_UNTIL_SECS, type DelayUntilStep } from '../workflow-steps.js';

/**
 * When a delay_until step lets the run go on: its `until`, or the time in the payload `field`,
 * plus `offset_secs`. A time already past lets it go on now. A payload field that is missing,
 * not an RFC 3339 date-time, or more than MAX_DELAY_UNTIL_SECS ahead is an error naming the
 * field: the run fails rather than send at a time nobody asked for.
 */
export function delayUntil(step: DelayUntilStep, scope: ConditionScope, now: Date): { at: Date } | { error: string } {
  const raw = step.until ?? resolveField(scope, step.field!);
  const source = step.until !== undefined ? 'until' : step.field!;
  if (!isRfc3339(raw)) {
    const shown = raw === undefined ? 'missing' : JSON.stringify(raw).slice(0, 80);
    return {
      error: `delay_until: ${source} is ${shown}, not an RFC 3339 date-time with an offset (e.g. 2026-12-24T18:00:00+01:00)`,
    };
  }
  const at = new Date(Date.parse(raw as string) + (step.offset_secs ?? 0) * 1000);
  if (at.getTime() > now.getTime() + MAX_DELAY_UNTIL_SECS * 1000) {
    return {
      error: `delay_until: ${source} is ${at.toISOString()}${step.offset_secs ? ' with offset_secs' : ''}, more than ${MAX_DELAY_UNTIL_SECS / 86_400} days ahead`,
    };
  }
  return { at };
}
