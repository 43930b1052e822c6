/**
 * notifyd 0.x's workflow step language, converted to notifyd's (workflow-steps.ts). 0.x's
 * differ in two ways: a send or digest step may name a stored `template` (0.x rendered it at send
 * time, and fell back to the step's inline fields when the template had no variant for the
 * channel), and a digest's window is `duration_secs` (here `window_secs`). Delay and condition
 * steps are already the same. The conversion inlines the template's content as it is now: the
 * stored step no longer follows later edits of the template (docs/MIGRATING.md).
 */

/** A template's content for one channel, or undefined when it has no variant for that channel. */
export type TemplateContent = { subject: string | null; body: string; body_html: string | null };
export type TemplateLookup = (templateId: string, channel: string) => TemplateContent | undefined;

/** 0.x channel aliases (reference §2.2). */
const CHANNEL_ALIASES: Record<string, string> = { inapp: 'in_app', fcm: 'push' };

/** Whether steps are written in the 0.x language: a step names a template, or a digest counts `duration_secs`. */
export function isLegacy0xSteps(steps: unknown[]): boolean {
  return steps.some((s) => isObject(s) && ('template' in s || (s.type === 'digest' && 'duration_secs' in s)));
}

/** The template ids the steps name (to load them before converting). */
export function templatesNamed(steps: unknown[]): string[] {
  return [...new Set(steps.filter(isObject).map((s) => s.template).filter((t): t is string => typeof t === 'string'))];
}

/**
 * The steps in notifyd's language, still to be checked by parseSteps; or the problems (naming
 * the step and the fix) when a named template cannot be inlined.
 */
export function convertLegacy0xSteps(steps: unknown[], template: TemplateLookup): { steps: unknown[] } | { problems: string[] } {
  const problems: string[] = [];
  const converted = steps.map((raw, i) => {
    if (!isObject(raw)) return raw;
    const step: Record<string, unknown> = { ...raw };
    if (typeof step.channel === 'string') step.channel = CHANNEL_ALIASES[step.channel] ?? step.channel;
    if (step.type === 'digest' && 'duration_secs' in step) {
      if (!('window_secs' in step)) step.window_secs = step.duration_secs;
      delete step.duration_secs;
    }
    if ('template' in step) {
      const id = step.template;
      delete step.template;
      if (typeof id !== 'string') {
        problems.push(`steps[${i}].template must be a template id (a string)`);
        return step;
      }
      const content = typeof step.channel === 'string' ? template(id, step.channel) : undefined;
      if (content) {
        // 0.x rendered the template when it had a variant for the channel: it wins over inline fields.
        step.body = content.body;
        if (content.subject !== null) step.subject = content.subject;
        else delete step.subject;
        if (content.body_html !== null) step.body_html = content.body_html;
        else delete step.body_html;
      } else if (!step.body && !step.subject && !step.body_html) {
        problems.push(`steps[${i}] names template '${id}', which has no ${String(step.channel)} variant in this project, and has no inline subject or body: create the template first, or write the content in the step`);
      }
    }
    return step;
  });
  return problems.length ? { problems } : { steps: converted };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
