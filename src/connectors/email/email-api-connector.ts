import type { DeliveryResult, OutboundMessage, ProjectSettingsSpec } from '../connector.js';
import type { HttpRefusal } from '../http-outcome.js';
import { OneMessageConnector } from '../one-message-connector.js';
import { type EmailContent, emailContent } from './email-content.js';
import type { EmailDefaults } from './email-defaults.js';
import { callProvider, type ProviderAnswer } from './provider-http.js';

/**
 * The skeleton of an email connector that calls its provider's HTTP API: it holds the
 * operator's settings (or a project's, through forProject) and the email defaults, and sends
 * one message per call by default, each made into an EmailContent first. A provider with a
 * batch API raises batchMax and overrides send, keeping sendEmail for the single messages.
 */
export abstract class EmailApiConnector<Settings extends { baseUrl: string }> extends OneMessageConnector {
  readonly channel = 'email' as const;

  constructor(
    protected readonly settings: Settings,
    protected readonly defaults: EmailDefaults,
  ) {
    super();
  }

  protected sendOne(message: OutboundMessage): Promise<DeliveryResult> {
    return this.sendEmail(emailContent(message, this.defaults));
  }

  protected abstract sendEmail(email: EmailContent): Promise<DeliveryResult>;

  /**
   * POSTs one request to `path` under the base URL: the provider's refusal as a failed result,
   * else what `accepted` reads from the answer (the provider's message id).
   */
  protected async post(
    path: string,
    request: { headers: Record<string, string>; body: string },
    refusal: HttpRefusal,
    accepted: (answer: ProviderAnswer) => DeliveryResult,
  ): Promise<DeliveryResult> {
    const answer = await callProvider(`${this.settings.baseUrl}${path}`, request, this.defaults.timeoutMs);
    const error = refusal(answer.status, answer.json, answer.header);
    return error ? { ok: false, error } : accepted(answer);
  }
}

/**
 * An email connector authorised by one API key. A project's own account is its key (the
 * `api_key` setting of per-project providers; the base URL stays the operator's), and the
 * instance's connector cannot start without one.
 */
export abstract class ApiKeyEmailConnector<
  Settings extends { baseUrl: string; apiKey?: string },
> extends EmailApiConnector<Settings> {
  /** What the key is, for the project setting ("a Resend API key"). */
  protected abstract readonly keyHint: string;
  /** The configuration error without a key: the variable to set and where keys come from. */
  protected abstract readonly keyMissing: string;

  get projectSettings(): ProjectSettingsSpec {
    return { fields: { api_key: apiKeySetting(this.keyHint) } };
  }

  validateConfiguration(): void {
    if (!this.settings.apiKey) throw new Error(this.keyMissing);
  }

  forProject(s: Readonly<Record<string, string>>): ApiKeyEmailConnector<Settings> {
    return this.withSettings({ ...this.settings, apiKey: s.api_key });
  }

  /** The provider's connector with other settings (a project's key). */
  protected abstract withSettings(settings: Settings): ApiKeyEmailConnector<Settings>;
}

/** The headers of a JSON call authorised by a bearer token (API key). */
export function bearerJsonHeaders(token: string | undefined): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'user-agent': 'notifyd' };
}

/** A project setting that holds a provider's API key or token: required, secret, one word. */
export function apiKeySetting(hint: string): ProjectSettingsSpec['fields'][string] {
  return { required: true, secret: true, pattern: /^\S{8,200}$/, hint };
}
