import { type HttpRefusal, refusalByStatus } from '../../http-outcome.js';

/**
 * AgentMail's answers to `POST /v0/inboxes/{inbox_id}/messages/send` (docs.agentmail.to, API
 * reference and knowledge base "API 403 error", "Rate limits"): 200 `{message_id, thread_id}`;
 * errors as `{name, message}` (400 adds `errors`).
 * - 429 → rate_limited (Retry-After);
 * - 403 MessageRejectedError → permanent; dead when AgentMail says the recipient is suppressed
 *   (it suppresses addresses that bounced, were rejected or complained, and answers 403 for
 *   them; the same status covers a bad key, so only the message tells the two apart);
 * - 400 ValidationError, 401, 403 (key, inbox of another organisation), 404 NotFoundError
 *   (no such inbox: EMAIL_FROM is not an inbox), other 4xx → permanent;
 * - 5xx and 408 → transient.
 */
export const classifyAgentmail: HttpRefusal = (status, body, header, now = new Date()) => {
  if (status >= 200 && status < 300) return null;
  const { name, message } = (body ?? {}) as { name?: string; message?: string };
  const detail = `AgentMail ${status}${name ? ` ${name}` : ''}: ${(message ?? '').slice(0, 500)}`;
  const dead = status === 403 && name === 'MessageRejectedError' && SUPPRESSED.test(message ?? '');
  return refusalByStatus(status, detail, header, { providerCode: name ?? String(status), deadRecipient: dead }, now);
};

/** How AgentMail words a refusal of a suppressed recipient. */
const SUPPRESSED = /suppress|bounced|complain/i;
