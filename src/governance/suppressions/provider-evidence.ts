import type { Channel } from '../../domain/channels.js';
import type { ProviderError } from '../../connectors/provider-error.js';
import type { SuppressionReason, SuppressionScope } from './suppression.types.js';

/**
 * Provider codes that are an opt-out, not a delivery fault:
 * - Twilio 21610: the recipient replied STOP to this sender; every later message is refused.
 * - WhatsApp (Meta Cloud API) 131050: the user stopped marketing messages from this business.
 * - Telnyx 40300: the number is blocked because its owner replied STOP.
 */
const OPT_OUT_CODES: Record<string, { reason: SuppressionReason; scope: SuppressionScope }> = {
  '21610': { reason: 'stop', scope: 'all' },
  '131050': { reason: 'stop', scope: 'marketing' },
  '40300': { reason: 'stop', scope: 'all' },
};

/** Channels whose address is the recipient itself; push addresses a subscriber's devices (dead tokens are dropped, not suppressed). */
const ADDRESSED: ReadonlySet<Channel> = new Set(['email', 'sms', 'whatsapp', 'telegram', 'slack', 'discord']);

/**
 * The suppression a synchronous provider refusal proves, if any: an opt-out code, or a
 * permanent refusal marked deadRecipient (an email hard bounce; an SMS/chat address that
 * can never work).
 */
export function suppressionFromRefusal(
  channel: Channel,
  error: ProviderError,
): { reason: SuppressionReason; scope: SuppressionScope } | null {
  const code = error.providerCode ? OPT_OUT_CODES[error.providerCode] : undefined;
  if (code && (channel === 'sms' || channel === 'whatsapp')) return code;
  if (error.kind !== 'permanent' || !error.deadRecipient || !ADDRESSED.has(channel)) return null;
  return { reason: channel === 'email' ? 'bounce' : 'invalid', scope: 'all' };
}

/**
 * A synchronous refusal that is an email hard bounce: the provider said, in its answer, that the
 * mailbox will never work (SMTP 550 5.1.1, an API's "invalid recipient"). The job ends `bounced`
 * and emits `job.bounced`, as the provider's bounce webhook would; the address is suppressed
 * (above). A dead SMS number or chat stays `failed` (suppressed as `invalid`): "bounce" is email's word.
 */
export function isHardBounce(channel: Channel, error: ProviderError): boolean {
  return suppressionFromRefusal(channel, error)?.reason === 'bounce';
}
