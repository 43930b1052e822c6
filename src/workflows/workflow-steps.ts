import { z } from 'zod';
import { isRfc3339 } from '../common/validation/rfc3339.js';
import { CHANNELS } from '../domain/channels.js';
import { TEMPLATE_ID_HELP, TEMPLATE_ID_PATTERN } from '../templates/template-id.js';

/*
 * The step language (notifyd §2.8 plus throttle and branch), as JSON with a `type` tag. Jump
 * targets are step indexes from 0; the number of steps means "end the run".
 */

const DAY = 86_400;
/** The furthest a delay_until step may wait, from the moment the run reaches it. */
export const MAX_DELAY_UNTIL_SECS = 365 * DAY;
/** Runs started by trigger_workflow steps, one inside the other, beyond which a step refuses to start another. */
export const MAX_TRIGGER_DEPTH = 5;
/**
 * Runs one trigger may start through trigger_workflow steps, at every depth together: the depth
 * bounds a chain, this bounds fan-out (50 such steps at each of 5 levels would be 50^5 runs).
 */
export const MAX_TRIGGERED_RUNS = 100;
/**
 * A digest message's `{{items}}`: the first this many events, as long as they fit in
 * MAX_DIGEST_ITEMS_BYTES of JSON; `{{item_count}}` counts them all. A digest collects for up to
 * 7 days, so its events are unbounded in number and each payload may be megabytes.
 */
export const MAX_DIGEST_ITEMS = 100;
export const MAX_DIGEST_ITEMS_BYTES = 1_000_000;
const WORKFLOW_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;
/** A payload time for delay_until: payload.<path> only (a subscriber field is not a time). */
const PAYLOAD_FIELD = z
  .string()
  .regex(/^payload(\.[A-Za-z0-9_-]{1,64}){1,8}$/, { message: 'must be payload.<path>, e.g. payload.appointment_at' });
const PAYLOAD_KEY = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { message: 'must be 1–64 letters, digits, _ or -' });
/** payload.<path>, subscriber.<field or data.path>, digest.item_count, inbox.is_read. */
const FIELD = z
  .string()
  .regex(
    /^(payload(\.[A-Za-z0-9_-]{1,64}){1,8}|subscriber\.(id|email|phone|locale|timezone|data(\.[A-Za-z0-9_-]{1,64}){1,8})|digest\.item_count|inbox\.is_read)$/,
    {
      message: 'must be payload.<path>, subscriber.<field>, subscriber.data.<path>, digest.item_count or inbox.is_read',
    },
  );
export const OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'not_in',
  'contains',
  'exists',
  'not_exists',
] as const;
const target = z.number().int().min(0).max(99);

const condition = z.strictObject({
  field: FIELD,
  operator: z.enum(OPERATORS),
  value: z.unknown().optional(),
});

const content = {
  channel: z.enum(CHANNELS),
  /** A stored template, rendered at send time in the subscriber's locale (es-MX → es → default), as single sends do. */
  template_id: z.string().regex(TEMPLATE_ID_PATTERN, { message: TEMPLATE_ID_HELP }).optional(),
  subject: z.string().max(998).optional(),
  body: z.string().max(100_000).optional(),
  body_html: z.string().max(1_000_000).optional(),
  icon: z.string().max(200).optional(),
  url: z.string().max(2048).optional(),
  priority: z
    .union([z.enum(['critical', 'high', 'normal', 'low', 'bulk']), z.number().int().min(0).max(100)])
    .optional(),
};

export const stepSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('send'), ...content }),
  z.strictObject({
    type: z.literal('delay'),
    duration_secs: z
      .number()
      .int()
      .min(1)
      .max(30 * DAY),
  }),
  z.strictObject({
    type: z.literal('delay_until'),
    /** An absolute time (RFC 3339 with an offset)… */
    until: z
      .string()
      .refine(isRfc3339, { message: 'must be an RFC 3339 date-time with an offset, e.g. 2026-12-24T18:00:00+01:00' })
      .optional(),
    /** …or a time read from the trigger's payload when the run reaches the step. */
    field: PAYLOAD_FIELD.optional(),
    /** Added to the time: -86400 wakes a day before it. */
    offset_secs: z
      .number()
      .int()
      .min(-30 * DAY)
      .max(30 * DAY)
      .optional(),
  }),
  z.strictObject({
    type: z.literal('trigger_workflow'),
    workflow_id: z.string().regex(WORKFLOW_ID, { message: 'must be the id of a workflow of this project' }),
    /** The new run's payload: these keys from these fields; absent, the whole trigger payload. */
    payload_map: z
      .record(PAYLOAD_KEY, FIELD)
      .refine((m) => Object.keys(m).length >= 1 && Object.keys(m).length <= 50, { message: 'must map 1–50 keys' })
      .optional(),
  }),
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
    branches: z
      .array(z.strictObject({ conditions: z.array(condition).min(1).max(10), next: target }))
      .min(1)
      .max(10),
    default_next: target.optional(),
  }),
  z.strictObject({
    type: z.literal('throttle'),
    window_secs: z
      .number()
      .int()
      .min(1)
      .max(30 * DAY),
    limit: z.number().int().min(1).max(10_000).default(1),
    key: FIELD.optional(),
  }),
  z.strictObject({
    type: z.literal('digest'),
    window_secs: z
      .number()
      .int()
      .min(1)
      .max(7 * DAY),
    key: FIELD.optional(),
    ...content,
  }),
]);

export type WorkflowStep = z.infer<typeof stepSchema>;
export type Condition = z.infer<typeof condition>;
export type SendStep = Extract<WorkflowStep, { type: 'send' }>;
export type DigestStep = Extract<WorkflowStep, { type: 'digest' }>;
export type ThrottleStep = Extract<WorkflowStep, { type: 'throttle' }>;
export type DelayUntilStep = Extract<WorkflowStep, { type: 'delay_until' }>;
export type TriggerWorkflowStep = Extract<WorkflowStep, { type: 'trigger_workflow' }>;

/**
 * Parses a workflow's steps; returns them normalised, or the list of problems ("steps[2].window_secs
 * must be…") for a 422. Jumps must land inside the workflow or on its end.
 */
export function parseSteps(raw: unknown[], now = new Date()): { steps: WorkflowStep[] } | { problems: string[] } {
  const parsed = z.array(stepSchema).min(1).max(50).safeParse(raw);
  if (!parsed.success) {
    return {
      problems: parsed.error.issues.map(
        (i) => `steps${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')} ${i.message}`,
      ),
    };
  }
  const steps = parsed.data;
  const problems: string[] = [];
  steps.forEach((step, i) => {
    const jumps =
      step.type === 'condition'
        ? [step.on_true, step.on_false]
        : step.type === 'branch'
          ? [...step.branches.map((b) => b.next), step.default_next]
          : [];
    for (const j of jumps)
      if (j !== undefined && j > steps.length)
        problems.push(
          `steps[${i}] jumps to step ${j}, but there are ${steps.length} steps (0–${steps.length - 1}; ${steps.length} ends the run)`,
        );
    if (
      (step.type === 'send' || step.type === 'digest') &&
      !step.template_id &&
      !step.body &&
      !step.subject &&
      !step.body_html
    ) {
      problems.push(`steps[${i}] (${step.type}) needs a template_id, or a subject, body or body_html`);
    }
    if (step.type === 'delay_until') problems.push(...delayUntilProblems(step, i, now));
  });
  return problems.length ? { problems } : { steps };
}

/** One of `until` or `field`; an absolute time must lie ahead, within MAX_DELAY_UNTIL_SECS. */
function delayUntilProblems(step: DelayUntilStep, i: number, now: Date): string[] {
  if ((step.until === undefined) === (step.field === undefined)) {
    return [`steps[${i}] (delay_until) needs exactly one of until (a date-time) or field (payload.<path> holding one)`];
  }
  if (step.until === undefined) return [];
  const at = Date.parse(step.until) + (step.offset_secs ?? 0) * 1000;
  if (at <= now.getTime())
    return [
      `steps[${i}].until is in the past (${new Date(at).toISOString()} with offset_secs): give a time ahead, or use field to read one from the payload`,
    ];
  if (at > now.getTime() + MAX_DELAY_UNTIL_SECS * 1000)
    return [`steps[${i}].until is more than ${MAX_DELAY_UNTIL_SECS / DAY} days ahead: a run waits at most that long`];
  return [];
}
