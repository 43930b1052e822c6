import type { OutboundMessage } from '../connector.js';
import { isReservedTag, JOB_ID_TAG } from './reserved-tags.js';
import { unsubscribeHeaders } from './unsubscribe-headers.js';

export interface EmailAddress {
  email: string;
  name?: string;
}

export interface EmailAttachment {
  filename: string;
  /** Base64, as the API received it. */
  content: string;
  contentType: string;
}

/**
 * One email, provider-neutral: what every email connector turns into its own wire format.
 * Built once per message from the job payload, so that every provider sends the same thing.
 */
export interface EmailContent {
  from: EmailAddress;
  to: string;
  cc: string[];
  replyTo?: string;
  subject: string;
  text?: string;
  html?: string;
  /** Custom headers, the caller's first, then RFC 8058 unsubscribe headers unless the caller set its own. */
  headers: Record<string, string>;
  attachments: EmailAttachment[];
  /** Provider tags; `notifyd_job_id` is always one (providers echo it in their webhooks). */
  tags: { name: string; value: string }[];
  jobId: string;
  idempotencyKey: string;
  marketing: boolean;
}

export interface EmailContentOptions {
  /** PUBLIC_URL without a trailing slash; unsubscribe links need it. */
  publicUrl?: string;
  /** The instance sender, for a message that arrived without one (never in practice: the worker sets it). */
  defaultFrom: EmailAddress;
}

/** notifyd's default subject when none was given. */
export const DEFAULT_SUBJECT = 'Notification';

export function emailContent(message: OutboundMessage, options: EmailContentOptions): EmailContent {
  const p = message.payload as {
    cc?: unknown;
    reply_to?: unknown;
    email_headers?: unknown;
    attachments?: unknown;
    tags?: unknown;
  };
  const headers: Record<string, string> = { ...stringRecord(p.email_headers) };
  if (message.marketing) Object.assign(headers, unsubscribeHeaders(message, headers, options.publicUrl));
  return {
    from: message.from ?? options.defaultFrom,
    to: message.recipient,
    cc: Array.isArray(p.cc) ? p.cc.filter((c): c is string => typeof c === 'string') : [],
    replyTo: typeof p.reply_to === 'string' ? p.reply_to : undefined,
    subject: message.subject ?? DEFAULT_SUBJECT,
    text: message.body,
    html: message.bodyHtml,
    headers,
    attachments: attachments(p.attachments),
    tags: [...tags(p.tags), { name: JOB_ID_TAG, value: message.jobId }],
    jobId: message.jobId,
    idempotencyKey: message.idempotencyKey,
    marketing: message.marketing,
  };
}

/** `Name <email>` with the name quoted when it needs to be (RFC 5322 display name). */
export function formatAddress(address: EmailAddress): string {
  if (!address.name) return address.email;
  const name = /^[\w !#$%&'*+/=?^`{|}~.-]*$/.test(address.name)
    ? address.name
    : `"${address.name.replace(/(["\\])/g, '\\$1')}"`;
  return `${name} <${address.email}>`;
}

/** The domain of an address, for Message-IDs. */
export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1) || 'notifyd.local';
}

function stringRecord(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

export function attachments(value: unknown): EmailAttachment[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(
      (a): a is { filename: string; content: string; content_type?: string } =>
        typeof a?.filename === 'string' && typeof a?.content === 'string',
    )
    .map((a) => ({
      filename: a.filename,
      content: a.content,
      contentType: a.content_type ?? 'application/octet-stream',
    }));
}

/** The caller's tags; reserved names (refused at enqueue since, possibly in jobs queued before) are dropped. */
function tags(value: unknown): { name: string; value: string }[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (t): t is { name: string; value: string } =>
      typeof t?.name === 'string' && typeof t?.value === 'string' && !isReservedTag(t.name),
  );
}
