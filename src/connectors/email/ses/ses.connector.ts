import type { SesSettings } from '../../../config/sections/email-providers.config.js';
import type { Connector, DeliveryResult, OutboundMessage, ProjectSettingsSpec } from '../../connector.js';
import { ProviderError } from '../../provider-error.js';
import { type EmailContent, emailContent } from '../email-content.js';
import type { EmailDefaults } from '../email-defaults.js';
import { instanceEmailConnector } from '../instance-connector.js';
import { callProvider, type ProviderAnswer } from '../provider-http.js';
import { classifySesBulkStatus, classifySesHttp } from './ses-errors.js';
import { bulkEmailRequest, bulkGroupKey, rawEmailRequest, simpleEmailRequest } from './ses-requests.js';

/**
 * Amazon SES v2 over its REST API, signed with SigV4 (`aws4`): `outbound-emails` for one
 * message (Simple content, or Raw MIME built by nodemailer when it has attachments) and
 * `outbound-bulk-emails` for up to 50 entries with a status per entry, so a rejected address
 * fails only itself.
 */
export class SesConnector implements Connector {
  readonly channel = 'email' as const;
  readonly provider = 'ses';
  readonly batchMax = 50;
  /**
   * SES's maximum send rate counts messages (each destination of a bulk call is one), not
   * requests: a bulk call of 50 takes 50 tokens.
   */
  readonly meters = 'messages' as const;

  /** A project's own ses account (per-project providers); the base URL stays the operator's. */
  readonly projectSettings: ProjectSettingsSpec = {
    fields: {
      region: { required: true, pattern: /^[a-z]{2}(-[a-z]+)+-\d$/, hint: 'an AWS region such as eu-west-1' },
      access_key_id: { required: true, secret: true, pattern: /^[A-Z0-9]{16,128}$/, hint: 'an AWS access key id' },
      secret_access_key: { required: true, secret: true, pattern: /^\S{16,128}$/, hint: 'an AWS secret access key' },
      configuration_set: { pattern: /^[A-Za-z0-9_-]{1,64}$/, hint: 'an SES configuration set name' },
    },
  };

  constructor(
    private readonly settings: SesSettings,
    private readonly defaults: EmailDefaults,
  ) {}

  validateConfiguration(): void {
    const missing = [
      !this.settings.region && 'SES_REGION (or AWS_REGION)',
      !this.settings.accessKeyId && 'AWS_ACCESS_KEY_ID',
      !this.settings.secretAccessKey && 'AWS_SECRET_ACCESS_KEY',
    ].filter(Boolean);
    if (missing.length)
      throw new Error(
        `EMAIL_PROVIDER=ses needs ${missing.join(', ')} (an IAM identity allowed ses:SendEmail and ses:SendBulkEmail).`,
      );
  }

  forProject(s: Readonly<Record<string, string>>): SesConnector {
    return new SesConnector(
      {
        ...this.settings,
        region: s.region,
        accessKeyId: s.access_key_id,
        secretAccessKey: s.secret_access_key,
        sessionToken: undefined,
        configurationSet: s.configuration_set,
        baseUrl:
          this.settings.region === s.region && this.settings.baseUrl
            ? this.settings.baseUrl
            : `https://email.${s.region}.amazonaws.com`,
      },
      this.defaults,
    );
  }

  async send(messages: readonly OutboundMessage[]): Promise<DeliveryResult[]> {
    const emails = messages.map((m) => emailContent(m, this.defaults));
    const results: DeliveryResult[] = new Array(emails.length);
    const groups = new Map<string, number[]>();
    const singles: number[] = [];
    emails.forEach((email, i) => {
      if (email.attachments.length) return singles.push(i);
      const key = bulkGroupKey(email);
      groups.set(key, [...(groups.get(key) ?? []), i]);
    });
    const calls: Promise<void>[] = singles.map(async (i) => void (results[i] = await this.sendOne(emails[i])));
    for (const indexes of groups.values()) {
      if (indexes.length === 1)
        calls.push((async () => void (results[indexes[0]] = await this.sendOne(emails[indexes[0]])))());
      else
        calls.push(
          (async () =>
            (await this.sendBulk(indexes.map((i) => emails[i]))).forEach((r, k) => (results[indexes[k]] = r)))(),
        );
    }
    await Promise.all(calls);
    return results;
  }

  private async sendOne(email: EmailContent): Promise<DeliveryResult> {
    const request = email.attachments.length
      ? await rawEmailRequest(email, this.settings.configurationSet)
      : simpleEmailRequest(email, this.settings.configurationSet);
    const answer = await this.post('/v2/email/outbound-emails', request);
    const error = classifySesHttp(answer.status, answer.json, answer.header);
    if (error) return { ok: false, error };
    return { ok: true, providerMessageId: (answer.json as { MessageId?: string } | undefined)?.MessageId ?? null };
  }

  private async sendBulk(emails: EmailContent[]): Promise<DeliveryResult[]> {
    const answer = await this.post(
      '/v2/email/outbound-bulk-emails',
      bulkEmailRequest(emails, this.settings.configurationSet),
    );
    const error = classifySesHttp(answer.status, answer.json, answer.header);
    if (error) return emails.map(() => ({ ok: false, error }));
    const entries = (
      answer.json as { BulkEmailEntryResults?: { Status?: string; Error?: string; MessageId?: string }[] } | undefined
    )?.BulkEmailEntryResults;
    if (!Array.isArray(entries) || entries.length !== emails.length) {
      const failure = ProviderError.transient(
        `SES bulk answered ${Array.isArray(entries) ? entries.length : 'no'} results for ${emails.length} entries`,
      );
      return emails.map(() => ({ ok: false, error: failure }));
    }
    return entries.map((entry) => {
      const refusal = classifySesBulkStatus(entry.Status ?? 'FAILED', entry.Error);
      return refusal ? { ok: false, error: refusal } : { ok: true, providerMessageId: entry.MessageId ?? null };
    });
  }

  /** One SigV4-signed JSON POST to the SES v2 endpoint. aws4 is imported on first use (cached by the module loader). */
  private async post(path: string, body: Record<string, unknown>): Promise<ProviderAnswer> {
    const { default: aws4 } = await import('aws4');
    const url = new URL(`${this.settings.baseUrl}${path}`);
    const signed = aws4.sign(
      {
        host: url.host,
        path: url.pathname,
        method: 'POST',
        service: 'ses',
        region: this.settings.region,
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json' },
      },
      {
        accessKeyId: this.settings.accessKeyId,
        secretAccessKey: this.settings.secretAccessKey,
        sessionToken: this.settings.sessionToken,
      },
    );
    // fetch sets Host and Content-Length itself, to the values signed here.
    const headers = Object.fromEntries(
      Object.entries(signed.headers ?? {})
        .filter(([name]) => !['host', 'content-length'].includes(name.toLowerCase()))
        .map(([name, value]) => [name, String(value)]),
    );
    return callProvider(
      url.toString(),
      { headers: { ...headers, 'user-agent': 'notifyd' }, body: signed.body as string },
      this.defaults.timeoutMs,
    );
  }
}

/** The instance's SES account, from SES_REGION/AWS_* (EMAIL_PROVIDER=ses). */
export const InstanceSesConnector = instanceEmailConnector(SesConnector, (config) => config.emailProviders.ses);
