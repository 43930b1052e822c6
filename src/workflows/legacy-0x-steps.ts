/**
 * notifyd 0.x's workflow step language, converted to notifyd's (workflow-steps.ts). 0.x's
 * differ in two ways: a send or digest step names a stored template as `template` (here
 * `template_id`: rendered at send time in the subscriber's locale, the step's inline fields used
 * when the template has no variant for the channel, as 0.x did), and a digest's window is
 * `duration_secs` (here `window_secs`). Delay and condition steps are already the same. Whether
 * the named template exists is checked where every definition is checked (workflows.service.ts).
 */

/** 0.x channel aliases (reference §2.2). */
const CHANNEL_ALIASES: Record<string, string> = { inapp: 'in_app', fcm: 'push' };

/** Whether steps are written in the 0.x language: a step names a template, or a digest counts `duration_secs`. */
export function isLegacy0xSteps(steps: unknown[]): boolean {
  return steps.some((s) => isObject(s) && ('template' in s || (s.type === 'digest' && 'duration_secs' in s)));
}

/** The steps in notifyd's language, still to be checked by parseSteps. */
export function convertLegacy0xSteps(steps: unknown[]): unknown[] {
  return steps.map((raw) => {
    if (!isObject(raw)) return raw;
    const step: Record<string, unknown> = { ...raw };
    if (typeof step.channel === 'string') step.channel = CHANNEL_ALIASES[step.channel] ?? step.channel;
    if (step.type === 'digest' && 'duration_secs' in step) {
      if (!('window_secs' in step)) step.window_secs = step.duration_secs;
      delete step.duration_secs;
    }
    if ('template' in step) {
      if (!('template_id' in step)) step.template_id = step.template;
      delete step.template;
    }
    return step;
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
