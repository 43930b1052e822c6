import type { Channel } from './channels.js';

export const JOB_STATUSES = ['pending', 'processing', 'retry', 'sent', 'failed', 'cancelled', 'bounced'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** What a job carries besides its address: content and options, as the caller sent them. */
export interface JobPayload {
  subject?: string;
  body?: string;
  body_html?: string;
  vars?: Record<string, unknown>;
  icon?: string;
  url?: string;
  tags?: { name: string; value: string }[];
  email_headers?: Record<string, string>;
  cc?: string[];
  reply_to?: string;
  attachments?: { filename: string; content: string; content_type?: string }[];
  sms?: { from?: string } | null;
  /** WhatsApp template (Meta: template; Twilio: content_sid + content_variables). */
  whatsapp?: {
    template?: { name: string; language: string; components?: Record<string, unknown>[] };
    content_sid?: string;
    content_variables?: Record<string, string>;
  };
  /** Chat: replacement text, Telegram button label and forum topic, and a per-user Telegram route (its own bot). */
  chat?: { text?: string; button?: string; telegram_thread_id?: string; telegram_route_id?: string };
  marketing?: boolean;
  transactional?: boolean;
  [key: string]: unknown;
}

/** A job row as the API and the worker read it. */
export interface JobRow {
  id: string;
  projectId: string;
  channel: Channel;
  subscriberId: string | null;
  recipient: string;
  templateId: string | null;
  topic: string | null;
  payload: JobPayload;
  status: JobStatus;
  priority: number;
  scheduledAt: Date;
  runAt: Date;
  nextRetryAt: Date | null;
  attempts: number;
  maxAttempts: number;
  claimedAt: Date | null;
  idempotencyKey: string | null;
  provider: string | null;
  providerMessageId: string | null;
  error: string | null;
  createdAt: Date;
  sentAt: Date | null;
  deliveredAt: Date | null;
  bouncedAt: Date | null;
  openedAt: Date | null;
  clickedAt: Date | null;
  complainedAt: Date | null;
  /** Who queued it (jobs.created_by): a project key's hint, admin, mcp or workflow; null before migration 83. */
  createdBy: string | null;
}

/** One attempt of a job that did not end in a send (job_attempts). */
export interface JobAttempt {
  at: Date;
  /** The attempt number the claim gave it (a rate-limited call gives its number back). */
  attempt: number;
  outcome: 'retry' | 'failed' | 'rate_limited' | 'deferred';
  /** False when it did not use one of the job's attempts (rate_limited, deferred). */
  counted: boolean;
  provider: string | null;
  error: string | null;
  /** When the job was due again (retry, rate_limited, deferred). */
  nextAt: Date | null;
}

/** One piece of provider evidence about a job, as the job page shows it. */
export interface JobProviderEvent {
  provider: string;
  providerType: string;
  kind: string;
  occurredAt: Date;
  providerMessageId: string | null;
  recipients: string[];
  error: string | null;
}

/** One job to insert (send, batch, send-test, workflows). */
export interface NewJob {
  channel: Channel;
  subscriberId: string | null;
  recipient: string;
  scheduledAt: Date;
  idempotencyKey: string | null;
  /** When the job is first claimable if not scheduledAt: its fair-share slot on a paced lane. */
  runAt?: Date;
}
