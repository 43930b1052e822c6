import type { Channel } from '../domain/channels.js';
import { ApiError } from '../common/errors/api-error.js';
import { isChannel, normaliseChannel } from '../domain/channels.js';
import type { MessageContentDto, SendRequestDto } from './dto/send.dto.js';
import type { JobPayload } from '../domain/job.types.js';
import { normaliseSendWindow } from '../governance/send-windows/send-window.js';

/** The channels a request asks for: `channels`, else `channel` (comma list), else in-app. */
export function requestedChannels(dto: MessageContentDto): Channel[] {
  if (dto.channels && dto.channel) {
    throw ApiError.unprocessable('validation_failed', 'Send either channels (a list) or channel (a string), not both.');
  }
  const raw = dto.channels ?? dto.channel?.split(',') ?? ['in_app'];
  const channels = [...new Set(raw.map(normaliseChannel))];
  return channels.filter(isChannel);
}

/** Email-only options must come with the email channel, or they would be silently ignored. */
export function assertEmailOptions(dto: SendRequestDto, channels: readonly Channel[]): void {
  const used = (['cc', 'reply_to', 'attachments', 'email_headers'] as const).filter((f) => dto[f] !== undefined);
  if (used.length && !channels.includes('email')) {
    throw ApiError.unprocessable(
      'validation_failed',
      `${used.join(', ')} apply to email only; add "email" to channels or remove them.`,
    );
  }
  if (dto.cc && dto.to) {
    const primary = dto.to.toLowerCase();
    if (dto.cc.some((c) => c.toLowerCase() === primary)) {
      throw ApiError.unprocessable('validation_failed', 'cc repeats the to address; remove it from cc.');
    }
  }
}

/** WhatsApp and chat options must come with a channel that reads them, or they would be silently ignored. */
export function assertChannelOptions(dto: MessageContentDto, channels: readonly Channel[]): void {
  if (dto.whatsapp !== undefined && !channels.includes('whatsapp')) {
    throw ApiError.unprocessable(
      'validation_failed',
      'whatsapp applies to the whatsapp channel only; add "whatsapp" to channels or remove it.',
    );
  }
  if (dto.chat !== undefined && !channels.some((c) => c === 'slack' || c === 'discord' || c === 'telegram')) {
    throw ApiError.unprocessable(
      'validation_failed',
      'chat applies to the slack, discord and telegram channels only; add one to channels or remove it.',
    );
  }
}

/** The job payload: content and options exactly as sent, nothing dropped. */
export function buildPayload(dto: SendRequestDto | MessageContentDto, marketing: boolean): JobPayload {
  const send = dto as SendRequestDto;
  const payload: JobPayload = {
    subject: dto.subject,
    body: dto.body,
    body_html: dto.body_html,
    vars: dto.vars,
    icon: dto.icon,
    url: dto.url,
    sms: dto.sms ? { ...dto.sms } : null,
    whatsapp: dto.whatsapp ? { ...dto.whatsapp } : undefined,
    chat: dto.chat ? { ...dto.chat } : undefined,
    push: dto.push ? { ...dto.push } : undefined,
    tags: send.tags?.map((t) => ({ name: t.name, value: t.value })),
    email_headers: send.email_headers,
    cc: send.cc ? [...new Set(send.cc.map((c) => c.toLowerCase()))] : undefined,
    reply_to: send.reply_to,
    attachments: send.attachments?.map((a) => ({
      filename: a.filename,
      content: a.content,
      content_type: a.content_type,
    })),
    marketing,
    // The request's own window (normalised) or false, so the worker re-checks the same rule.
    send_window: dto.send_window === false ? false : dto.send_window ? normaliseSendWindow(dto.send_window) : undefined,
    // Own open/click tracking override (see governance/tracking/tracking-policy.ts).
    track: dto.track,
    // Persisted so that the worker skips preferences too (suppressions always apply).
    transactional: send.transactional === true ? true : undefined,
    // The template variant's language when the request names one (else the subscriber's).
    locale: dto.locale,
  };
  // JSON drops undefined keys anyway; removing them keeps the stored payload tidy.
  for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
  return payload;
}
