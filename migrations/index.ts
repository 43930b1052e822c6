import { InitialSchema1764460800001 } from './0001-initial-schema.js';
import { ProviderBreakers1764460800010 } from './0010-provider-breakers.js';
import { ProjectProviders1764460800011 } from './0011-project-providers.js';
import { InboxMessages1764460800015 } from './0015-inbox-messages.js';
import { PushTokens1764460800018 } from './0018-push-tokens.js';
import { PacingLanes1764460800020 } from './0020-pacing-lanes.js';
import { JobWaiters1764460800030 } from './0030-job-waiters.js';
import { Suppressions1764460800040 } from './0040-suppressions.js';
import { Templates1764460800041 } from './0041-templates.js';
import { Preferences1764460800042 } from './0042-preferences.js';
import { RecipientCaps1764460800045 } from './0045-recipient-caps.js';
import { ProviderEvents1764460800048 } from './0048-provider-events.js';
import { Webhooks1764460800050 } from './0050-webhooks.js';
import { Workflows1764460800051 } from './0051-workflows.js';
import { InboxStream1764460800052 } from './0052-inbox-stream.js';
import { DigestIndexes1764460800060 } from './0060-digest-indexes.js';
import { PeriodicRuns1764460800061 } from './0061-periodic-runs.js';
import { MetricsSnapshots1764460800062 } from './0062-metrics-snapshots.js';
import { AuditLogFilters1764460800063 } from './0063-audit-log-filters.js';
import { JobOutcomeHourly1764460800064 } from './0064-job-outcome-hourly.js';
import { RecipientCapHolds1764460800067 } from './0067-recipient-cap-holds.js';
import { JobsUpdateRoom1764460800068 } from './0068-jobs-update-room.js';
import { JobIdsTimeOrdered1764460800069 } from './0069-job-ids-time-ordered.js';
import { TokenGenerations1764460800070 } from './0070-token-generations.js';
import { RateLimitCounts1764460800072 } from './0072-rate-limit-counts.js';
import { ChatBindings1764460800076 } from './0076-chat-bindings.js';
import { WorkerHeartbeats1764460800079 } from './0079-worker-heartbeats.js';
import { DigestRollupOpenHour1764460800080 } from './0080-digest-rollup-open-hour.js';
import { ConsoleSessions1764460800081 } from './0081-console-sessions.js';
import { JobContents1764460800082 } from './0082-job-contents.js';
import { JobCreatedBy1764460800083 } from './0083-job-created-by.js';
import { JobAttempts1764460800084 } from './0084-job-attempts.js';
import { WebhookSignatureFormat1764460800085 } from './0085-webhook-signature-format.js';
import { Batches1764460800086 } from './0086-batches.js';
import { SendRefusals1764460800087 } from './0087-send-refusals.js';
import { TelegramRoutes1764460800088 } from './0088-telegram-routes.js';
import { SubscriberInboxEvents1764460800089 } from './0089-subscriber-inbox-events.js';
import { StreamTicketTokenExpiry1764460800090 } from './0090-stream-ticket-token-expiry.js';
import { WebhookEndpointPause1764460800091 } from './0091-webhook-endpoint-pause.js';
import { WorkflowVersions1764460800092 } from './0092-workflow-versions.js';
import { WebhookHeldByPause1764460800093 } from './0093-webhook-held-by-pause.js';

/**
 * Every migration, oldest first. TypeORM gets classes rather than a glob so that the same list
 * works compiled, under Jest (ESM) and in the CLI. Add new files at the end, never edit old ones.
 * TypeORM runs them by the timestamp in their names; the list follows the same order.
 */
export const MIGRATIONS = [
  InitialSchema1764460800001,
  // Issue 3a: failover breakers.
  ProviderBreakers1764460800010,
  // Issue 3a: per-project providers.
  ProjectProviders1764460800011,
  // Issue 3b (taken from issue-3-connectors-b for the inbox): in-app inbox.
  InboxMessages1764460800015,
  // Issue 3c: push device tokens.
  PushTokens1764460800018,
  // Issue 4: pacing lanes and fair-share clocks.
  PacingLanes1764460800020,
  JobWaiters1764460800030,
  // Issue 6a: governance (suppressions, preferences, templates).
  Suppressions1764460800040,
  Templates1764460800041,
  Preferences1764460800042,
  // Issue 6b: per-recipient caps.
  RecipientCaps1764460800045,
  // Issue 6c: provider events (webhooks in), jobs.complained_at.
  ProviderEvents1764460800048,
  // Issue 7: outbound webhooks, workflows, inbox.
  Webhooks1764460800050,
  Workflows1764460800051,
  InboxStream1764460800052,
  // Issue 8a: digest, metrics, audit.
  DigestIndexes1764460800060,
  PeriodicRuns1764460800061,
  MetricsSnapshots1764460800062,
  AuditLogFilters1764460800063,
  // Issue 8: the digest's hourly rollup.
  JobOutcomeHourly1764460800064,
  // Issue 6 (gap): holds on recipient caps, counted at enqueue.
  RecipientCapHolds1764460800067,
  // Issue 9: room for job updates on their page; hash index on provider message ids.
  JobsUpdateRoom1764460800068,
  // Issue 9: time-ordered job ids (UUIDv7), so a batch's primary-key entries sit together.
  JobIdsTimeOrdered1764460800069,
  // Issue 18: revocable subscriber tokens (subscriber token version, project epoch).
  TokenGenerations1764460800070,
  // Issue 18: one rate limit per project for every door, shared by the replicas.
  RateLimitCounts1764460800072,
  // Issue 18: chats and channels the instance-wide bots may reach for a project.
  ChatBindings1764460800076,
  // Issue 20: worker heartbeats (the digest and /v1/health notice a missing worker).
  WorkerHeartbeats1764460800079,
  // Issue 20: the digest's rollup reaches into the open hour (5-minute periods).
  DigestRollupOpenHour1764460800080,
  // Issue 24: operator console sessions (cookie sign-in, server-side sign-out).
  ConsoleSessions1764460800081,
  // Issue 26: the rendered subject and body of each job, shown in the job view and timeline.
  JobContents1764460800082,
  // Issue 25: which key (or caller) queued each job.
  JobCreatedBy1764460800083,
  // Issue 25: every attempt of a job, also those that did not count, for its timeline.
  JobAttempts1764460800084,
  // Issue 23: webhook endpoints signed the notifyd 0.x way as well (imported endpoints).
  WebhookSignatureFormat1764460800085,
  // Issue 26: campaign status (batches, jobs.batch_id).
  Batches1764460800086,
  // Issue 24: sends refused at admission, for the recipient trace.
  SendRefusals1764460800087,
  // Issue 23: per-user Telegram bots (routes, destinations, link tokens), as notifyd 0.x had them.
  TelegramRoutes1764460800088,
  // Deleting a subscriber deletes the inbox stream's copies of their messages.
  SubscriberInboxEvents1764460800089,
  // An inbox stream opened through a ticket ends when the token the ticket was minted from expires.
  StreamTicketTokenExpiry1764460800090,
  // A failing webhook endpoint is paused and probed (circuit breaker) instead of sent every new event.
  WebhookEndpointPause1764460800091,
  // A run records the workflow version it started with instead of a copy of the steps.
  WorkflowVersions1764460800092,
  // A webhook endpoint's recovery releases the deliveries its pause held, not a receiver's own Retry-After.
  WebhookHeldByPause1764460800093,
];
