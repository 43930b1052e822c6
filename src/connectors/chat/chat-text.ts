import type { JobPayload } from '../../domain/job.types.js';
import type { OutboundMessage } from '../connector.js';

/** The chat options of a message (`chat` in /v1/send). */
export function chatOptions(message: OutboundMessage): NonNullable<JobPayload['chat']> {
  return (message.payload as JobPayload).chat ?? {};
}

/** notifyd's chat text: `chat.text` if given, else subject and body separated by a blank line (or whichever exists). */
export function chatText(message: OutboundMessage): string | undefined {
  const own = chatOptions(message).text;
  if (own) return own;
  const parts = [message.subject, message.body].filter((p): p is string => typeof p === 'string' && p.length > 0);
  return parts.length ? parts.join('\n\n') : undefined;
}

/** The message's link (`url`) when it is an http(s) URL, for buttons and embeds. */
export function chatLink(message: OutboundMessage): string | undefined {
  const url = (message.payload as JobPayload).url;
  return typeof url === 'string' && /^https?:\/\//i.test(url) ? url : undefined;
}

/**
 * A URL a caller gave as the recipient (Slack incoming webhook, Discord webhook), if it is on
 * one of the provider's hosts; undefined otherwise. The SSRF guard still checks it when sent.
 */
export function providerWebhookUrl(recipient: string, hosts: readonly string[], pathPrefix = '/'): URL | undefined {
  let url: URL;
  try {
    url = new URL(recipient);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (!hosts.includes(url.hostname.toLowerCase())) return undefined;
  return url.pathname.startsWith(pathPrefix) ? url : undefined;
}
