import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
} from 'class-validator';
import { IsText } from '../../common/validation/bounded.js';
import { IsIdempotencyKey } from '../../common/validation/validators.js';
import { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import { SUBSCRIBER_ID_PATTERN } from '../../subscribers/dto/subscriber.dto.js';

const EVENT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;
const EVENT_MESSAGE = 'must be 1–100 letters, digits, _ . : or -, e.g. order.shipped';

/** The steps' language in words: OpenAPI shows it, and the MCP tool that writes workflows says the same. */
export const STEPS_SCHEMA: ApiPropertyOptions = {
  type: 'array' as const,
  minItems: 1,
  maxItems: 50,
  description:
    'Steps run in order; jumps are step indexes (the number of steps ends the run). Types: ' +
    '`send` {channel, template_id?, subject?, body?, body_html?, icon?, url?, priority?} — `template_id` names a stored template, rendered at send time ' +
    "in the subscriber's locale (es-MX → es → default) as single sends do; channels without a variant use the inline content; " +
    '`delay` {duration_secs}; ' +
    '`delay_until` {until | field, offset_secs?} — waits until an RFC 3339 time, given (`until`, ahead, within 365 days) or read from the payload ' +
    '(`field`: payload.<path>) when the run reaches the step, plus `offset_secs` (−30 to +30 days); a past time goes on at once, a missing or unreadable one ' +
    'or one more than 365 days ahead fails the run; ' +
    '`trigger_workflow` {workflow_id, payload_map?} — starts a run of another workflow of the project for the same subscriber, with the trigger payload ' +
    'or `payload_map` ({key: field}); a workflow that would start itself again (directly or through others) is refused, and runs started one inside the ' +
    'other stop at depth 5; ' +
    '`condition` {field, operator, value?, on_true?, on_false?}; ' +
    '`branch` {branches: [{conditions: [{field, operator, value?}], next}], default_next?}; ' +
    '`throttle` {window_secs, limit? (1), key?} — over the limit the run ends; ' +
    '`digest` {window_secs, key?, channel, template_id?, subject?, body?…} — events of one subscriber and key are collected across triggers ' +
    'and sent as one message with `{{item_count}}` and `{{items}}`. Fields: payload.<path>, subscriber.<field>, ' +
    'subscriber.data.<path>, digest.item_count, inbox.is_read. Operators: eq, neq, gt, gte, lt, lte, in, not_in, contains, exists, not_exists. ' +
    "notifyd 0.x steps are accepted too and stored in this form: a send or digest step naming a `template` gets that template's " +
    "default variant for its channel inlined, and a digest's `duration_secs` becomes `window_secs`.",
  items: {
    type: 'object',
    additionalProperties: true,
    properties: {
      type: {
        type: 'string',
        enum: ['send', 'delay', 'delay_until', 'condition', 'branch', 'throttle', 'digest', 'trigger_workflow'],
      },
    },
    required: ['type'],
  },
  example: [
    { type: 'send', channel: 'in_app', body: 'Your order {{order_id}} shipped' },
    { type: 'delay', duration_secs: 86400 },
    { type: 'condition', field: 'inbox.is_read', operator: 'eq', value: true, on_true: 4 },
    { type: 'send', channel: 'email', subject: 'Your order shipped', body: 'Track it: {{tracking_url}}' },
  ],
};

export class UpsertWorkflowDto {
  /** @example "order-shipped" */
  @IsString()
  @Matches(EVENT_PATTERN, { message: 'must be 1–100 letters, digits, _ . : or -' })
  id: string;

  /** @example "Order shipped" */
  @IsText({ min: 1, max: 200 })
  name: string;

  /** @example "In-app now, email the next day if unread" */
  @IsOptional()
  @IsText({ max: 1000 })
  description?: string;

  /**
   * The event name that starts a run (POST /v1/workflows/trigger).
   * @example "order.shipped"
   */
  @IsString()
  @Matches(EVENT_PATTERN, { message: EVENT_MESSAGE })
  trigger_event: string;

  @ApiProperty(STEPS_SCHEMA)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsObject({ each: true, message: 'each step must be an object with a type' })
  steps: Record<string, unknown>[];

  /** @example true */
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

export class TriggerWorkflowDto {
  /** @example "order.shipped" */
  @IsString()
  @Matches(EVENT_PATTERN, { message: EVENT_MESSAGE })
  event: string;

  /** @example "user_123" */
  @IsString()
  @Matches(SUBSCRIBER_ID_PATTERN, { message: 'must be 1–255 printable characters' })
  subscriber_id: string;

  /**
   * Data for conditions and templates (`{{order_id}}`, `{{order.total}}`).
   * @example {"order_id": "A-1042", "tracking_url": "https://acme.example/t/A-1042"}
   */
  @IsOptional()
  @IsObject()
  payload?: Record<string, unknown>;

  /**
   * A replay with the same key starts no new run and returns the first call's runs.
   * @example "order-A-1042-shipped"
   */
  @IsOptional()
  @IsIdempotencyKey(200)
  idempotency_key?: string;
}

export class ListRunsQueryDto extends PageQueryDto {
  /** @example "order-shipped" */
  @IsOptional()
  @IsText({ max: 100 })
  workflow_id?: string;

  /** @example "user_123" */
  @IsOptional()
  @IsText({ max: 255 })
  subscriber_id?: string;

  /** @example "waiting" */
  @IsOptional()
  @IsIn(['pending', 'processing', 'waiting', 'completed', 'failed', 'cancelled'])
  status?: string;
}

export class WorkflowDto {
  /** @example "order-shipped" */
  id: string;
  /** @example "Order shipped" */
  name: string;
  /** @example "In-app now, email the next day if unread" */
  description: string | null;
  /** @example "order.shipped" */
  trigger_event: string;
  /** @example [{"type": "send", "channel": "in_app", "body": "Your order {{order_id}} shipped"}] */
  steps: Record<string, unknown>[];
  /** @example true */
  enabled: boolean;
  /** @example "2026-11-30T10:00:00.000Z" */
  created_at: string;
  /** @example "2026-11-30T10:00:00.000Z" */
  updated_at: string;
}

export class UpsertWorkflowResponseDto {
  /** @example true */
  success: boolean;
  /** @example "order-shipped" */
  id: string;
  /** @example "acme" */
  project_id: string;
  /** @example true */
  created: boolean;
  workflow: WorkflowDto;
}

export class WorkflowListDto {
  workflows: WorkflowDto[];
  /** @example 1 */
  count: number;
}

export class WorkflowResponseDto {
  /** @example true */
  success: boolean;
  workflow: WorkflowDto;
}

export class TriggerWorkflowResponseDto {
  /** @example true */
  success: boolean;
  /** @example "order.shipped" */
  event: string;
  /**
   * One run per enabled workflow listening to the event.
   * @example ["6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f"]
   */
  workflow_runs: string[];
  /**
   * true when an idempotency key replay returned earlier runs.
   * @example false
   */
  deduplicated: boolean;
}

export class RunHistoryEntryDto {
  /** @example 0 */
  step: number;
  /** @example "send" */
  type: string;
  /** @example "2026-11-30T10:00:00.000Z" */
  at: string;
  /** @example "sent" */
  result?: string;
  /** @example ["3f2b8c1e-7a0d-4b6e-9f1a-2c3d4e5f6a7b"] */
  job_ids?: string[];
  /**
   * The run a trigger_workflow step started.
   * @example "9a7c3e1f-2b4d-4e6f-8a0b-1c2d3e4f5a6b"
   */
  run_id?: string;
  /** @example "in_app" */
  detail?: string;
}

export class RunParentDto {
  /** @example "6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f" */
  run_id: string;
  /** @example "order-shipped" */
  workflow_id: string;
  /**
   * Runs started one inside the other above this one, this one included (at most 5).
   * @example 1
   */
  depth: number;
}

export class WorkflowRunDto {
  /** @example "6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f" */
  id: string;
  /** @example "order-shipped" */
  workflow_id: string;
  /** @example "user_123" */
  subscriber_id: string;
  /** @example "order.shipped" */
  trigger_event: string;
  /** @example "waiting" */
  status: string;
  /** @example 2 */
  current_step: number;
  /**
   * When a waiting or pending run resumes.
   * @example "2026-12-01T10:00:00.000Z"
   */
  resume_at: string | null;
  /**
   * How a finished run ended: completed, throttled, digested into run …, cancelled, failed.
   * @example null
   */
  outcome: string | null;
  /** @example null */
  error: string | null;
  /** @example {"order_id": "A-1042"} */
  payload: Record<string, unknown>;
  history: RunHistoryEntryDto[];
  /** The run whose trigger_workflow step started this one; null for a run started by a trigger. */
  triggered_by: RunParentDto | null;
  /** @example "2026-11-30T10:00:00.000Z" */
  created_at: string;
  /** @example "2026-11-30T10:00:00.000Z" */
  updated_at: string;
  /** @example null */
  finished_at: string | null;
}

export class WorkflowRunListDto {
  items: WorkflowRunDto[];
  /** @example null */
  next_cursor: string | null;
  /** @example 50 */
  limit: number;
}

export class WorkflowRunResponseDto {
  /** @example true */
  success: boolean;
  run: WorkflowRunDto;
}

export class CancelRunResponseDto {
  /** @example true */
  success: boolean;
  /** @example "6f1c2a4e-1d3b-4c5d-9e8f-0a1b2c3d4e5f" */
  id: string;
  /**
   * Digests this run had opened, cancelled with it (their collected events are dropped).
   * @example 0
   */
  digests_cancelled: number;
}

export class DeleteWorkflowResponseDto {
  /** @example true */
  success: boolean;
  /** @example "order-shipped" */
  id: string;
}
