import { z } from 'zod';
import { CHANNELS } from '../domain/channels.js';

/*
 * The step language (notifyd §2.8 plus throttle and branch), as JSON with a `type` tag. Jump
 * targets are step indexes from 0; the number of steps means "end the run".
 */

const DAY = 86_400;
/** payload.<path>, subscriber.<field or data.path>, digest.item_count, inbox.is_read. */
const FIELD = z.string().regex(/^(payload(\.[A-Za-z0-9_-]{1,64}){1,8}|subscriber\.(id|email|phone|locale|timezone|data(\.[A-Za-z0-9_-]{1,64}){1,8})|digest\.item_count|inbox\.is_read)$/, {
  message: 'must be payload.<path>, subscriber.<field>, subscriber.data.<path>, digest.item_count or inbox.is_read',
});
export const OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'contains', 'exists', 'not_exists'] as const;
const target = z.number().int().min(0).max(99);

const condition = z.strictObject({
  field: FIELD,
  operator: z.enum(OPERATORS),
  value: z.unknown().optional(),
});

const content = {
  channel: z.enum(CHANNELS),
  subject: z.string().max(998).optional(),
  body: z.string().max(100_000).optional(),
  body_html: z.string().max(1_000_000).optional(),
  icon: z.string().max(200).optional(),
  url: z.string().max(2048).optional(),
  priority: z.union([z.enum(['critical', 'high', 'normal', 'low', 'bulk']), z.number().int().min(0).max(100)]).optional(),
};

export const stepSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('send'), ...content }),
  z.strictObject({ type: z.literal('delay'), duration_secs: z.number().int().min(1).max(30 * DAY) }),
  z.strictObject({
    type: z.literal('condition'),
    field: FIELD,
    operator: z.enum(OPERATORS),
    value: z.unknown().optional(),
    on_true: target.optional(),
    on_false: target.optional(),
  }),
  z.strictObject({
    type: z.literal('branch'),
    branches: z.array(z.strictObject({ conditions: z.array(condition).min(1).max(10), next: target })).min(1).max(10),
    default_next: target.optional(),
  }),
  z.strictObject({
    type: z.literal('throttle'),
    window_secs: z.number().int().min(1).max(30 * DAY),
    limit: z.number().int().min(1).max(10_000).default(1),
    key: FIELD.optional(),
  }),
  z.strictObject({
    type: z.literal('digest'),
    window_secs: z.number().int().min(1).max(7 * DAY),
    key: FIELD.optional(),
    ...content,
  }),
]);

export type WorkflowStep = z.infer<typeof stepSchema>;
export type Condition = z.infer<typeof condition>;
export type SendStep = Extract<WorkflowStep, { type: 'send' }>;
export type DigestStep = Extract<WorkflowStep, { type: 'digest' }>;
export type ThrottleStep = Extract<WorkflowStep, { type: 'throttle' }>;

/**
 * Parses a workflow's steps; returns them normalised, or the list of problems ("steps[2].window_secs
 * must be…") for a 422. Jumps must land inside the workflow or on its end.
 */
export function parseSteps(raw: unknown[]): { steps: WorkflowStep[] } | { problems: string[] } {
  const parsed = z.array(stepSchema).min(1).max(50).safeParse(raw);
  if (!parsed.success) {
    return {
      problems: parsed.error.issues.map((i) => `steps${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')} ${i.message}`),
    };
  }
  const steps = parsed.data;
  const problems: string[] = [];
  steps.forEach((step, i) => {
    const jumps =
      step.type === 'condition' ? [step.on_true, step.on_false] : step.type === 'branch' ? [...step.branches.map((b) => b.next), step.default_next] : [];
    for (const j of jumps) if (j !== undefined && j > steps.length) problems.push(`steps[${i}] jumps to step ${j}, but there are ${steps.length} steps (0–${steps.length - 1}; ${steps.length} ends the run)`);
    if ((step.type === 'send' || step.type === 'digest') && !step.body && !step.subject && !step.body_html) {
      problems.push(`steps[${i}] (${step.type}) needs a subject, body or body_html`);
    }
  });
  return problems.length ? { problems } : { steps };
}
