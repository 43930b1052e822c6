import type { Channel } from '../../domain/channels.js';

export const SUPPRESSION_SCOPES = ['all', 'marketing'] as const;
/** `all`: nothing goes to the address; `marketing`: only marketing/bulk messages are blocked. */
export type SuppressionScope = (typeof SUPPRESSION_SCOPES)[number];

export const SUPPRESSION_REASONS = ['bounce', 'complaint', 'manual', 'unsubscribe', 'stop', 'invalid'] as const;
/**
 * bounce: hard bounce; complaint: spam report; manual: added by a caller or operator;
 * unsubscribe: the recipient opted out of marketing; stop: STOP keyword or the channel's opt-out
 * (Twilio 21610, WhatsApp 131050); invalid: the provider says the address can never work.
 */
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

export interface SuppressionRow {
  id: string;
  projectId: string;
  channel: Channel;
  address: string;
  scope: SuppressionScope;
  reason: SuppressionReason;
  source: string;
  detail: string | null;
  /** Provider facts behind it (event type, bounce type, provider code…); never message bodies. */
  evidence: Record<string, unknown>;
  sourceJobId: string | null;
  providerEventId: string | null;
  createdAt: Date;
  releasedAt: Date | null;
  releasedBy: string | null;
  releaseReason: string | null;
}

/** What creates a suppression: the API, an operator, the worker or a provider webhook. */
export type SuppressInput = Pick<SuppressionRow, 'projectId' | 'channel' | 'scope' | 'reason'> &
  Partial<Pick<SuppressionRow, 'detail' | 'evidence' | 'sourceJobId' | 'providerEventId'>> & {
    /** Raw address; normalised per channel (see normaliseAddress). */
    address: string;
    /** Who: `api_key`, `admin`, `mcp`, `worker`, `resend-webhook`, `twilio-webhook`, `unsubscribe`… */
    source: string;
    /** Client address for the audit line. */
    ip?: string | null;
  };

/** An address to test: one job's recipient on its channel. */
export type SuppressionKey = Pick<SuppressionRow, 'projectId' | 'channel' | 'address'>;
