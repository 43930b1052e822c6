import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import type { ProjectRef } from '../projects/project.types.js';
import type { Admission, SkipRule, Target } from './admission/admission.types.js';
import { AdmissionService } from './admission/admission.service.js';
import { contentRequest } from './admission/content-request.js';
import type { SendRequestDto, SendResponseDto } from './dto/send.dto.js';
import { assertChannelOptions, assertEmailOptions, requestedChannels } from './message-options.js';
import { PRIORITY_NAMES } from '../domain/priority.js';
import { OutcomeWaitService } from './wait/outcome-wait.service.js';
import { parseWait } from './wait/wait-duration.js';

/** Skips that are the caller's to fix: when nothing else is queued, the answer is a 422 naming them. */
const CALLER_ERRORS: Record<Extract<SkipRule, 'unknown_subscriber' | 'no_address' | 'invalid_address'>, string> = {
  invalid_address: 'invalid_recipient',
  unknown_subscriber: 'unknown_subscriber',
  no_address: 'no_address',
};

/** POST /v1/send (and /v1/schedule, workflow send steps, MCP send): the request's door to the admission pipeline. */
@Injectable()
export class EnqueueService {
  constructor(
    private readonly admission: AdmissionService,
    private readonly outcomes: OutcomeWaitService,
  ) {}

  async send(project: ProjectRef, dto: SendRequestDto): Promise<SendResponseDto> {
    const channels = requestedChannels(dto);
    if (dto.to === undefined && dto.subscriber_id === undefined) {
      throw ApiError.unprocessable(
        'missing_recipient',
        "Missing 'to' or 'subscriber_id': say who receives the message.",
      );
    }
    assertEmailOptions(dto, channels);
    assertChannelOptions(dto, channels);
    const request = contentRequest(
      project,
      dto,
      channels,
      { kind: 'one', to: dto.to, subscriberId: dto.subscriber_id },
      { priority: PRIORITY_NAMES.normal, unconfiguredChannels: 'skip' },
    );
    const admission = await this.admission.admit(request);
    refuseWhenNothingQueued(admission, dto);

    const queued = admission.targets.filter((t) => t.jobId);
    const response: SendResponseDto = {
      success: true,
      job_ids: queued.map((t) => t.jobId!),
      scheduled_at: (admission.targets[0]?.scheduledAt ?? request.requestedAt).toISOString(),
      channels: queued.map((t) => t.channel),
      topic: admission.topic,
      skipped: admission.targets.filter((t) => t.skip).map((t) => ({ channel: t.channel, reason: t.skip!.reason })),
      deduplicated: queued.some((t) => t.deduplicated),
    };
    // `wait`: hold the answer until the jobs are final (validated by the DTO, bounded).
    return dto.wait === undefined ? response : this.outcomes.afterSend(project.id, response, parseWait(dto.wait) ?? 0);
  }
}

/**
 * A send that queues nothing because of its own data (a malformed `to`, an unknown subscriber,
 * no address on any requested channel) or because no requested channel is configured is a 422
 * that names the fix, never a 200 with nothing sent or a job that fails later. A malformed `to`
 * is refused even when other channels could go: `to` is the caller's to correct. Skips that are
 * the recipient's choice (suppressed, opted out, capped) stay a 200 with their reasons.
 */
function refuseWhenNothingQueued(admission: Admission, dto: SendRequestDto): void {
  const { targets } = admission;
  const skipped = targets.filter((t) => t.skip).map((t) => ({ channel: t.channel, reason: t.skip!.reason }));
  const invalidTo = dto.to !== undefined ? targets.find((t) => t.skip?.rule === 'invalid_address') : undefined;
  if (invalidTo) throw refusal(invalidTo, skipped, dto);
  if (targets.some((t) => t.jobId)) return;
  // Stopped by the recipient's own choice somewhere (suppressed, opted out, capped): a 200 that says so.
  if (!targets.every((t) => t.skip && (t.skip.rule === 'not_configured' || t.skip.rule in CALLER_ERRORS))) return;
  if (targets.some((t) => t.skip!.rule === 'not_configured')) {
    throw ApiError.unprocessable(
      'channel_not_configured',
      `Nothing was queued: ${skipped.map((s) => `${s.channel}: ${s.reason}`).join('; ')}.`,
      { skipped },
    );
  }
  throw refusal(targets[0], skipped, dto);
}

function refusal(target: Target, skipped: { channel: string; reason: string }[], dto: SendRequestDto): ApiError {
  const rule = target.skip!.rule as keyof typeof CALLER_ERRORS;
  const field =
    rule === 'unknown_subscriber'
      ? dto.subscriber_id !== undefined
        ? 'subscriber_id'
        : 'to'
      : dto.to !== undefined
        ? 'to'
        : 'subscriber_id';
  const fix =
    rule === 'invalid_address'
      ? field === 'to'
        ? 'correct to, or send on a channel that takes this address'
        : "correct the subscriber's address (PATCH /v1/subscribers/{id})"
      : rule === 'unknown_subscriber'
        ? 'create the subscriber first (POST /v1/subscribers), or send to an address with to on a channel such as email'
        : 'add the address to the subscriber (PATCH /v1/subscribers/{id}), or send on a channel the subscriber has an address for';
  return ApiError.unprocessable(
    CALLER_ERRORS[rule],
    `Nothing was queued (${field}): ${skipped.map((s) => `${s.channel}: ${s.reason}`).join('; ')}; ${fix}.`,
    { field, skipped },
  );
}
