import type { Channel } from '../domain/channels.js';
import type { InboxDraft } from './in-app/inbox-draft.js';
import type { ProviderError } from './provider-error.js';

export type { Channel };

/** One message handed to a provider: a claimed job, rendered and addressed. */
export interface OutboundMessage {
  jobId: string;
  projectId: string;
  channel: Channel;
  /** Address on the channel: email, E.164 phone, chat id or webhook, subscriber id (in-app, push). */
  recipient: string;
  subscriberId: string | null;
  subject?: string;
  /** Plain-text body. */
  body?: string;
  bodyHtml?: string;
  /** Email sender: the project's from_email/from_name, else the instance's EMAIL_FROM. */
  from?: { email: string; name?: string };
  /** Marketing/bulk messages get RFC 8058 unsubscribe headers and honour marketing suppressions. */
  marketing: boolean;
  /**
   * The job's topic (the request's, else its template's): the unsubscribe link is signed for it,
   * so that one click stops this topic only. Absent for messages that are not jobs (digests).
   */
  topic?: string | null;
  priority: number;
  /** The attempt this send is (1 = first). */
  attempt: number;
  /** Stable across retries of the same job: pass it to providers that deduplicate (Resend). */
  idempotencyKey: string;
  /** Everything else the caller sent (cc, reply_to, headers, attachments, tags, push, chat, sms…). */
  payload: Record<string, unknown>;
  /** The project keeps no content (`settings.rendered_content` = "redact"): connectors that print or store content must not. */
  contentRedacted?: boolean;
}

/** Remaining quota a provider announced (ratelimit-remaining / X-RateLimit-* headers). */
export interface QuotaHint {
  limit?: number;
  remaining?: number;
  resetAt?: Date;
}

export type DeliveryResult =
  | {
      ok: true;
      providerMessageId: string | null;
      quota?: QuotaHint;
      /**
       * Nothing needed sending (e.g. a push to a subscriber with no registered device): the job
       * closes as sent with provider `skipped` and this reason, as notifyd does.
       */
      skipped?: string;
      /** In-app: the inbox row, written by the statement that marks the job sent. */
      inbox?: InboxDraft;
    }
  | { ok: false; error: ProviderError };

/**
 * A provider for one channel. Implementations are Nest providers marked @NotifyConnector();
 * the registry discovers them at boot.
 */
export interface Connector {
  readonly channel: Channel;
  /** Stable id stored on the job and in metrics, e.g. `resend`, `smtp`, `twilio`. */
  readonly provider: string;
  /** Largest batch one provider call accepts (1 for SMTP, SMS; 100 for Resend). */
  readonly batchMax: number;
  /**
   * What the provider's rate limit counts: one token per call ('requests', e.g. Resend's
   * 10 requests/s for batches of 100) or per message ('messages'). Default 'requests'.
   */
  readonly meters?: 'requests' | 'messages';
  /**
   * The pacing tokens one call with these messages costs, for a connector that turns one call
   * into several provider requests (Resend: one request per email with attachments beside the
   * batch; push: one per device). The dispatcher takes them before the call, and cuts a call
   * that would cost more than the lane's bucket holds into smaller ones, so the provider never
   * sees more than rate × window plus one bucket. Without it a call costs 1 ('requests') or one
   * per message ('messages'). Must not throw; a connector may read what it needs here (push
   * reads the devices) and reuse it in send().
   */
  requestsFor?(messages: readonly OutboundMessage[]): number | Promise<number>;
  /**
   * True when each result is its own message's answer even within one call (the connector
   * calls the provider per message, as push does per device). The dispatcher then never
   * retries a call whose messages were all refused item by item: that would only send again.
   */
  readonly perMessageResults?: boolean;
  /**
   * Send the messages; resolve with exactly one result per message, in the same order.
   * Throwing is treated as a transient failure of every message.
   */
  send(messages: readonly OutboundMessage[]): Promise<DeliveryResult[]>;
  /**
   * Called once at boot when this connector is selected for its channel: check credentials
   * and settings here and throw an Error that names the variable to fix.
   */
  validateConfiguration?(): void | Promise<void>;
  /**
   * The provider's own rule for an address (a Telegram chat id, a webhook URL on an allowed
   * host), checked at enqueue so that a bad address is refused at the door instead of failing
   * at the worker: what is wrong with it, or undefined. Email and phone syntax are checked for
   * every connector already.
   */
  recipientProblem?(address: string): string | undefined;
  /**
   * Per-project providers: the settings a project may give for its own account with this
   * provider (admin API `PUT /v1/admin/projects/:id/providers/:channel`). Connectors without
   * it cannot be configured per project.
   */
  readonly projectSettings?: ProjectSettingsSpec;
  /** A connector for one project's own account, from settings checked against projectSettings. */
  forProject?(settings: Readonly<Record<string, string>>): Connector;
  /**
   * Chat bindings (issue 18). A connector that reaches recipients through one instance-wide
   * credential (a chat bot every project shares) returns the chat a project must be bound to
   * before it may send there, in the canonical form bindings store; undefined when the
   * recipient needs no binding (a capability URL such as a Slack incoming webhook carries its
   * own credential). Connectors without it reach nobody on behalf of another tenant (log,
   * webhooks the caller owns) and need no binding; a project's own account never does.
   */
  boundChat?(recipient: string): string | undefined;
}

/** The fields of a per-project provider configuration; secret fields are encrypted at rest and never shown. */
export interface ProjectSettingsSpec {
  fields: Record<string, { required?: boolean; secret?: boolean; pattern?: RegExp; hint?: string }>;
}
