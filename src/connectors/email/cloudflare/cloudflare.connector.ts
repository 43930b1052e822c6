import {
  CLOUDFLARE_ACCOUNT_ID,
  type CloudflareEmailSettings,
} from '../../../config/sections/email-providers.config.js';
import type { DeliveryResult, ProjectSettingsSpec } from '../../connector.js';
import { ProviderError } from '../../provider-error.js';
import { apiKeySetting, bearerJsonHeaders, EmailApiConnector } from '../email-api-connector.js';
import { instanceEmailConnector } from '../instance-connector.js';
import type { EmailContent } from '../email-content.js';
import { attachmentsAs, commonBodyParts, dispositionAttachment } from '../json-body-parts.js';
import { type CloudflareEnvelope, classifyCloudflare, permanentBounce } from './cloudflare-errors.js';

/** Cloudflare's limits per message (developers.cloudflare.com/email-service/platform/limits/). */
export const CLOUDFLARE_MAX_RECIPIENTS = 50;
export const CLOUDFLARE_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Cloudflare Email Service (Email Sending), REST: `POST /accounts/{account_id}/email/sending/send`
 * with a bearer API token, one message per call. A message over Cloudflare's limits (50
 * recipients, 5 MiB) fails before the call: Cloudflare would refuse it every time.
 */
export class CloudflareEmailConnector extends EmailApiConnector<CloudflareEmailSettings> {
  readonly provider = 'cloudflare';

  /** A project's own Cloudflare account (per-project providers); the base URL stays the operator's. */
  readonly projectSettings: ProjectSettingsSpec = {
    fields: {
      account_id: { required: true, pattern: CLOUDFLARE_ACCOUNT_ID, hint: 'a Cloudflare account id (32 hex digits)' },
      api_token: apiKeySetting('a Cloudflare API token with the Email Sending permission'),
    },
  };

  validateConfiguration(): void {
    const missing = [
      !this.settings.accountId && 'CLOUDFLARE_ACCOUNT_ID',
      !this.settings.apiToken && 'CLOUDFLARE_EMAIL_API_TOKEN',
    ].filter(Boolean);
    if (missing.length) {
      throw new Error(
        `EMAIL_PROVIDER=cloudflare needs ${missing.join(' and ')} (the account that owns the onboarded sender domain, and an API token with the Email Sending permission).`,
      );
    }
  }

  forProject(s: Readonly<Record<string, string>>): CloudflareEmailConnector {
    return new CloudflareEmailConnector(
      { ...this.settings, accountId: s.account_id, apiToken: s.api_token },
      this.defaults,
    );
  }

  protected async sendEmail(email: EmailContent): Promise<DeliveryResult> {
    const recipients = 1 + email.cc.length;
    if (recipients > CLOUDFLARE_MAX_RECIPIENTS) {
      return {
        ok: false,
        error: ProviderError.permanent(
          `Cloudflare takes at most ${CLOUDFLARE_MAX_RECIPIENTS} recipients (to and cc) per message; this one has ${recipients}`,
          { providerCode: 'too_many_recipients' },
        ),
      };
    }
    const body = JSON.stringify(cloudflareBody(email));
    if (Buffer.byteLength(body) > CLOUDFLARE_MAX_BYTES) {
      return {
        ok: false,
        error: ProviderError.permanent(
          `Cloudflare takes messages up to 5 MiB, attachments included; this one is ${Buffer.byteLength(body)} bytes`,
          { providerCode: 'message_too_large' },
        ),
      };
    }
    return this.post(
      `/accounts/${encodeURIComponent(this.settings.accountId ?? '')}/email/sending/send`,
      { headers: bearerJsonHeaders(this.settings.apiToken), body },
      classifyCloudflare,
      (answer) => {
        const envelope = (answer.json ?? {}) as CloudflareEnvelope;
        const bounce = permanentBounce(envelope, email.to);
        if (bounce) return { ok: false, error: bounce };
        return { ok: true, providerMessageId: envelope.result?.message_id ?? null };
      },
    );
  }
}

/** Cloudflare's send body: `from` as a string or `{address, name}`. */
export function cloudflareBody(email: EmailContent): Record<string, unknown> {
  return {
    from: email.from.name ? { address: email.from.email, name: email.from.name } : email.from.email,
    to: email.to,
    ...commonBodyParts(email),
    ...attachmentsAs(email, dispositionAttachment),
  };
}

/** The instance's Cloudflare account, from CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_EMAIL_API_TOKEN (EMAIL_PROVIDER=cloudflare). */
export const InstanceCloudflareEmailConnector = instanceEmailConnector(
  CloudflareEmailConnector,
  (config) => config.emailProviders.cloudflare,
);
