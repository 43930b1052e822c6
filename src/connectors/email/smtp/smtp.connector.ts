import { createPrivateKey } from 'node:crypto';
import { Inject } from '@nestjs/common';
import type { Transporter } from 'nodemailer';
import type { AppConfig } from '../../../config/app-config.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import type { SmtpSettings } from '../../../config/sections/email-providers.config.js';
import type { Connector, DeliveryResult, OutboundMessage } from '../../connector.js';
import { NotifyConnector } from '../../connector.decorator.js';
import { ProviderError } from '../../provider-error.js';
import { type EmailContent, emailContent } from '../email-content.js';
import { type EmailDefaults, emailDefaults } from '../email-defaults.js';
import { mimeOptions } from '../mime-options.js';
import { classifySmtpError, type SmtpFailure } from './smtp-errors.js';

/**
 * SMTP through nodemailer, which builds the RFC 5322 message: From with its display name,
 * Reply-To, Cc, a Message-ID stable across retries (`<job id@sender domain>`, so a receiver can
 * drop a duplicate after an at-least-once resend), multipart/alternative text + HTML inside
 * multipart/mixed with the attachments, the caller's headers, optional DKIM signature.
 * One message per call (batchMax 1); connections are pooled and reused. nodemailer (~25 MB
 * resident) is imported on the first send, so a process that never sends over SMTP never loads it.
 */
export class SmtpConnector implements Connector {
  readonly channel = 'email' as const;
  readonly provider = 'smtp';
  readonly batchMax = 1;
  private transporter: Promise<Transporter> | undefined;

  constructor(
    private readonly settings: SmtpSettings,
    private readonly defaults: EmailDefaults,
  ) {}

  validateConfiguration(): void {
    if (!this.settings.host)
      throw new Error(
        'EMAIL_PROVIDER=smtp needs SMTP_HOST (and SMTP_PORT, SMTP_USERNAME, SMTP_PASSWORD, SMTP_SECURITY as your relay requires).',
      );
    if (!!this.settings.username !== !!this.settings.password) {
      throw new Error('SMTP_USERNAME and SMTP_PASSWORD go together: set both (authenticated relay) or neither.');
    }
    const dkim = this.settings.dkim;
    if (dkim) {
      if (!dkim.domain || !dkim.selector || !dkim.privateKey) {
        throw new Error(
          'DKIM signing needs DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY together: set all three or none.',
        );
      }
      try {
        createPrivateKey(dkim.privateKey);
      } catch {
        throw new Error(
          'DKIM_PRIVATE_KEY is not a readable PEM private key: paste the key with its BEGIN/END lines (\\n escapes are accepted).',
        );
      }
    }
  }

  async send(messages: readonly OutboundMessage[]): Promise<DeliveryResult[]> {
    return Promise.all(messages.map((m) => this.sendOne(emailContent(m, this.defaults))));
  }

  /** Closes pooled connections (tests, shutdown). */
  close(): void {
    void this.transporter?.then(
      (t) => t.close(),
      () => undefined,
    );
    this.transporter = undefined;
  }

  private async sendOne(email: EmailContent): Promise<DeliveryResult> {
    const options = mimeOptions(email);
    try {
      const info = await (await this.transport()).sendMail(options);
      // With Cc, the relay may accept the message for some recipients and refuse the main one.
      const refused = (info.rejected as unknown[]).map(String).includes(email.to);
      if (refused) {
        const reason = ((info as { rejectedErrors?: SmtpFailure[] }).rejectedErrors ?? [])[0] ?? {
          message: `${email.to} refused by the relay`,
        };
        return { ok: false, error: classifySmtpError(reason) };
      }
      return { ok: true, providerMessageId: info.messageId ?? options.messageId };
    } catch (err) {
      if (err instanceof ProviderError) return { ok: false, error: err };
      return { ok: false, error: classifySmtpError(err as SmtpFailure) };
    }
  }

  private transport(): Promise<Transporter> {
    return (this.transporter ??= this.createTransport());
  }

  private async createTransport(): Promise<Transporter> {
    const { default: nodemailer } = await import('nodemailer');
    const s = this.settings;
    const dkim =
      s.dkim?.domain && s.dkim.selector && s.dkim.privateKey
        ? { domainName: s.dkim.domain, keySelector: s.dkim.selector, privateKey: s.dkim.privateKey }
        : undefined;
    return nodemailer.createTransport({
      pool: true,
      maxConnections: 5,
      host: s.host,
      port: s.port,
      secure: s.security === 'tls',
      requireTLS: s.security === 'starttls',
      ignoreTLS: s.security === 'none',
      auth: s.username ? { user: s.username, pass: s.password } : undefined,
      connectionTimeout: s.timeoutMs,
      greetingTimeout: s.timeoutMs,
      socketTimeout: s.timeoutMs,
      tls: { rejectUnauthorized: !s.tlsInsecure },
      dkim,
    });
  }
}

/** The instance's SMTP relay, from SMTP_* (EMAIL_PROVIDER=smtp). */
@NotifyConnector()
export class InstanceSmtpConnector extends SmtpConnector {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super(config.emailProviders.smtp, emailDefaults(config));
  }

  onModuleDestroy(): void {
    this.close();
  }
}
