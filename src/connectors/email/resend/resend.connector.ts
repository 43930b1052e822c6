import { createHash } from 'node:crypto';
import type { ResendSettings } from '../../../config/sections/email-providers.config.js';
import type { DeliveryResult, OutboundMessage } from '../../connector.js';
import { readQuota } from '../../http-outcome.js';
import { ProviderError } from '../../provider-error.js';
import { instanceEmailConnector } from '../instance-connector.js';
import { ApiKeyEmailConnector, bearerJsonHeaders } from '../email-api-connector.js';
import { attachments, type EmailContent, emailContent, formatAddress } from '../email-content.js';
import { attachmentsAs, namedAttachment } from '../json-body-parts.js';
import { callProvider } from '../provider-http.js';
import { classifyResend } from './resend-errors.js';

/**
 * Resend (resend.com/docs/api-reference): `POST /emails` for one message and
 * `POST /emails/batch` for up to 100. Every call carries an `Idempotency-Key` (the job id, or a
 * digest of the batch's job ids), so a resend after a crash is not delivered twice. The batch
 * API takes no attachments: messages with attachments go one by one. A batch is accepted or
 * refused whole; the dispatcher retries a wholly refused batch item by item.
 */
export class ResendConnector extends ApiKeyEmailConnector<ResendSettings> {
  readonly provider = 'resend';
  override readonly batchMax = 100;

  protected readonly keyHint = 'a Resend API key';
  protected readonly keyMissing =
    'EMAIL_PROVIDER=resend needs RESEND_API_KEY (an API key with sending access, from resend.com/api-keys).';

  protected withSettings(settings: ResendSettings): ResendConnector {
    return new ResendConnector(settings, this.defaults);
  }

  /** One request per email with attachments, plus one for the rest (the batch, or a single email). */
  requestsFor(messages: readonly OutboundMessage[]): number {
    const { singles, batchable } = resendCalls(messages.map((m) => ({ attachments: attachmentCount(m) })));
    return singles.length + (batchable.length ? 1 : 0);
  }

  override async send(messages: readonly OutboundMessage[]): Promise<DeliveryResult[]> {
    const emails = messages.map((m) => emailContent(m, this.defaults));
    const results: DeliveryResult[] = new Array(emails.length);
    const { singles, batchable } = resendCalls(emails.map((e) => ({ attachments: e.attachments.length, e })));
    await Promise.all([
      ...singles.map(async ({ e, i }) => (results[i] = await this.sendEmail(e))),
      (async () => {
        if (batchable.length === 0) return;
        const answers = await this.sendBatch(batchable.map(({ e }) => e));
        batchable.forEach(({ i }, k) => (results[i] = answers[k]));
      })(),
    ]);
    return results;
  }

  protected sendEmail(email: EmailContent): Promise<DeliveryResult> {
    return this.post(
      '/emails',
      { headers: this.headers(email.idempotencyKey), body: JSON.stringify(resendBody(email)) },
      classifyResend,
      (answer) => {
        const id = (answer.json as { id?: string } | undefined)?.id;
        return { ok: true, providerMessageId: id ?? null, quota: readQuota(answer.header) };
      },
    );
  }

  private async sendBatch(emails: EmailContent[]): Promise<DeliveryResult[]> {
    const key = `batch-${createHash('sha256')
      .update(emails.map((e) => e.idempotencyKey).join(','))
      .digest('hex')}`;
    const answer = await callProvider(
      `${this.settings.baseUrl}/emails/batch`,
      { headers: this.headers(key), body: JSON.stringify(emails.map(resendBody)) },
      this.defaults.timeoutMs,
    );
    const error = classifyResend(answer.status, answer.json, answer.header);
    if (error) return emails.map(() => ({ ok: false, error }));
    const data = (answer.json as { data?: { id?: string }[] } | undefined)?.data;
    if (!Array.isArray(data) || data.length !== emails.length) {
      const failure = ProviderError.transient(
        `Resend batch answered ${Array.isArray(data) ? data.length : 'no'} ids for ${emails.length} emails`,
      );
      return emails.map(() => ({ ok: false, error: failure }));
    }
    const quota = readQuota(answer.header);
    return data.map((d) => ({ ok: true, providerMessageId: d.id ?? null, quota }));
  }

  private headers(idempotencyKey: string): Record<string, string> {
    return { ...bearerJsonHeaders(this.settings.apiKey), 'idempotency-key': idempotencyKey };
  }
}

/**
 * How a call's emails go to Resend: the batch API takes no attachments, so each email with
 * attachments is a request of its own; the rest go as one batch (a lone one as a single email).
 * send() and requestsFor() both plan with it, so the pacing charge is the requests made.
 */
function resendCalls<T extends { attachments: number }>(
  emails: readonly T[],
): { singles: (T & { i: number })[]; batchable: (T & { i: number })[] } {
  const indexed = emails.map((e, i) => ({ ...e, i }));
  const batchable = indexed.filter((e) => e.attachments === 0);
  const singles = indexed.filter((e) => e.attachments > 0);
  if (batchable.length === 1) singles.push(batchable.pop()!);
  return { singles, batchable };
}

/** The attachments a message carries, as emailContent() keeps them, without building the whole email. */
function attachmentCount(message: OutboundMessage): number {
  return attachments((message.payload as { attachments?: unknown }).attachments).length;
}

/** Resend's send-email body (the batch API takes an array of the same objects, without attachments). */
export function resendBody(email: EmailContent): Record<string, unknown> {
  return {
    from: formatAddress(email.from),
    to: [email.to],
    subject: email.subject,
    ...(email.html !== undefined ? { html: email.html } : {}),
    ...(email.text !== undefined ? { text: email.text } : {}),
    ...(email.cc.length ? { cc: email.cc } : {}),
    ...(email.replyTo ? { reply_to: [email.replyTo] } : {}),
    ...(Object.keys(email.headers).length ? { headers: email.headers } : {}),
    // Resend accepts ASCII letters, digits, _ and - in tag names and values.
    tags: email.tags.map((t) => ({ name: tagText(t.name), value: tagText(t.value) })),
    ...attachmentsAs(email, namedAttachment),
  };
}

const tagText = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 256) || '_';

/** The instance's Resend account, from RESEND_API_KEY (EMAIL_PROVIDER=resend). */
export const InstanceResendConnector = instanceEmailConnector(
  ResendConnector,
  (config) => config.emailProviders.resend,
);
