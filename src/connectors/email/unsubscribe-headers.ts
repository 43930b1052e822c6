import type { OutboundMessage } from '../connector.js';
import { unsubscribeUrl } from '../../common/unsubscribe/unsubscribe-url.js';

/**
 * Where a recipient unsubscribes with one click, relative to PUBLIC_URL. The governance module
 * serves it (and may instead put a signed link of its own in the payload's `unsubscribe_url`; a caller
 * may give one in `vars.unsubscribe_url`).
 */
export const UNSUBSCRIBE_PATH = '/u/';

/**
 * RFC 8058 one-click unsubscribe for a marketing email: `List-Unsubscribe: <https://…>` and
 * `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (Gmail and Yahoo require both for bulk
 * senders). Nothing when the caller set its own List-Unsubscribe (RFC 8058 lets it), or when
 * there is no link to give (no payload `unsubscribe_url` and no PUBLIC_URL; the digest flags
 * a missing PUBLIC_URL).
 */
export function unsubscribeHeaders(
  message: OutboundMessage,
  callerHeaders: Record<string, string>,
  publicUrl: string | undefined,
): Record<string, string> {
  if (Object.keys(callerHeaders).some((name) => name.toLowerCase() === 'list-unsubscribe')) return {};
  const vars = message.payload.vars as Record<string, unknown> | undefined;
  const own = message.payload.unsubscribe_url ?? vars?.unsubscribe_url;
  // The governance module's signed link (PUBLIC_URL/u/<token>, see unsubscribeUrl); none without PUBLIC_URL.
  const url =
    typeof own === 'string' && /^https?:\/\//i.test(own) ? own : publicUrl ? unsubscribeUrl(message) : undefined;
  if (!url) return {};
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
