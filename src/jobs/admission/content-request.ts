import type { Channel } from '../../domain/channels.js';
import type { ProjectRef } from '../../projects/project.types.js';
import type { MessageContentDto, SendRequestDto } from '../dto/send.dto.js';
import { buildPayload } from '../message-options.js';
import { isCampaign, MARKETING_PRIORITY, parsePriority } from '../../domain/priority.js';
import type { AdmissionRequest, Audience } from './admission.types.js';

/**
 * The AdmissionRequest of a message as the API takes it (a send or a batch body): priority
 * (named or numeric; a campaign's tags make it bulk by default), whether it is marketing, its
 * payload and its time. The doors differ only in their audience and defaults.
 */
export function contentRequest(
  project: ProjectRef,
  dto: MessageContentDto & Pick<SendRequestDto, 'tags' | 'idempotency_key'>,
  channels: Channel[],
  audience: Audience,
  defaults: { priority: number; unconfiguredChannels: AdmissionRequest['unconfiguredChannels'] },
): AdmissionRequest {
  const campaign = isCampaign(dto.tags);
  const priority =
    parsePriority(dto.priority) ?? (campaign ? Math.max(defaults.priority, MARKETING_PRIORITY) : defaults.priority);
  const marketing = priority >= MARKETING_PRIORITY || campaign;
  return {
    project,
    channels,
    audience,
    payload: buildPayload(dto, marketing),
    priority,
    marketing,
    requestedAt: dto.scheduled_at ? new Date(dto.scheduled_at) : new Date(),
    idempotencyKey: dto.idempotency_key ?? null,
    templateId: dto.template ?? null,
    topic: dto.topic ?? null,
    unconfiguredChannels: defaults.unconfiguredChannels,
  };
}
