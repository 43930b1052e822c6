"""notifyd's request and response bodies, generated from its OpenAPI document by
clients/python/generate_types.py. Do not edit: run `npm run clients:generate`."""
# fmt: off
from typing import Any, Dict, List, Optional

try:
    from typing import TypedDict
except ImportError:  # pragma: no cover
    from typing_extensions import TypedDict  # type: ignore



class _AdminCreateSuppressionDtoRequired(TypedDict):
    project_id: str


class AdminCreateSuppressionDto(_AdminCreateSuppressionDtoRequired, total=False):
    email: str  # Email address to suppress (notifyd's field; same as `channel: "email"` with `address`).
    channel: str  # Channel of `address` (default `email`). SMS and WhatsApp are separate lists: a STOP on one does not silence the other.
    address: str  # The address on that channel: E.164 phone for sms/whatsapp, chat id or webhook for chat, subscriber id for in_app and push.
    scope: str  # `all` blocks every message (default); `marketing` blocks only marketing/bulk messages.
    detail: str  # Why, for your own records.


class AdminCreateSuppressionResponseDto(TypedDict):
    success: bool
    created: bool
    suppression: 'AdminSuppressionDto'


class _AdminCreateWebhookDtoRequired(TypedDict):
    url: str  # Where deliveries are POSTed: a public http(s) URL (private, loopback, link-local and metadata addresses are refused, also when a host name resolves to them).
    events: List[str]  # Events to receive; `*` for all.
    project_id: str


class AdminCreateWebhookDto(_AdminCreateWebhookDtoRequired, total=False):
    enabled: bool  # Whether deliveries are sent (default true).
    description: str
    secret: str  # Your own signing secret (`whsec_` + base64 of 24–64 bytes); omit it to get a generated one.
    signature_format: str  # `standard` (Standard Webhooks headers, the default) or `notifyd-0x`: also signed as notifyd 0.x signed (`X-Notifyd-Signature`: hex HMAC-SHA256 of the body keyed by the secret's bytes) and with 0.x's top-level `event`, `job_id`, `channel`, `subscriber_id` in job events, for a receiver written for 0.x. Its secret may then be any 16–200 characters (0.x's were 32 hex).


class AdminJobListDto(TypedDict):
    jobs: List['AdminJobSummaryDto']
    count: float
    next_cursor: Optional[str]  # Pass as `cursor` for the next page; null on the last page.


class AdminJobSummaryDto(TypedDict):
    id: str
    project_id: str
    channel: str
    status: str
    recipient: str  # Masked.
    subject: Optional[str]
    topic: Optional[str]
    priority: float
    attempts: float
    max_attempts: float
    provider: Optional[str]
    provider_message_id: Optional[str]
    scheduled_at: str
    sent_at: Optional[str]
    next_retry_at: Optional[str]
    created_at: str
    error: Optional[str]
    created_by: Optional[str]  # Who queued it: a project key's hint, admin, mcp or workflow (null before it was recorded).


class AdminReleaseSuppressionResponseDto(TypedDict):
    id: str
    released: bool


class AdminSuppressionDto(TypedDict):
    id: str
    project_id: str
    channel: str
    address: str
    email: Optional[str]  # The masked address when the channel is email, else null (notifyd's field).
    reason: str
    scope: str
    source: str
    detail: Optional[str]
    created_at: str


class AdminSuppressionListDto(TypedDict):
    suppressions: List['AdminSuppressionDto']
    count: float


class _AttachmentDtoRequired(TypedDict):
    filename: str
    content: str  # File content, base64-encoded.


class AttachmentDto(_AttachmentDtoRequired, total=False):
    content_type: str


class AuditEntryDto(TypedDict):
    id: str
    project_id: Optional[str]
    actor: str
    action: str
    resource: Optional[str]
    metadata: Dict[str, Any]  # Names and ids only, never message bodies, recipients or secrets.
    ip: Optional[str]
    created_at: str


class _AuditListDtoRequired(TypedDict):
    items: List['AuditEntryDto']
    next_cursor: Optional[str]  # Pass as cursor for the next (older) page; null on the last page.


class AuditListDto(_AuditListDtoRequired, total=False):
    total: float  # Deprecated, with `offset` only (notifyd 0.x's paging): the lines matching the filters.
    limit: float  # Deprecated, with `offset` only: the page size used.
    offset: float  # Deprecated, with `offset` only: the offset asked for.


class BatchJobCountsDto(TypedDict):
    queued: float  # Waiting: pending or scheduled for later, or waiting to retry.
    processing: float  # Being sent right now.
    sent: float
    failed: float
    bounced: float
    cancelled: float


class BatchRequestDto(TypedDict, total=False):
    priority: Any  # critical (10), high (30), normal (50), low (70), bulk (80) or 0–100; lower goes first.
    send_window: Any  # When this message may be sent, in the recipient's time zone (overrides the project's window); `false` sends at any time. A job outside its window waits for the next opening.
    track: Any  # Own open/click tracking for this message: `false` turns it off, `{opens, clicks}` narrows it; `true` or an object opts a transactional email in. Never more than the project allows.
    segment: Dict[str, Any]  # Send to every subscriber a segment matches (instead of `subscribers`), read and queued in pages of SEGMENT_PAGE_SIZE: no size limit.
    subscribers: List[str]  # Subscriber ids to send to (at most 10 000 per call; duplicates are sent once). Give either `subscribers` or `segment`.
    idempotency_key: str  # Makes the whole batch safe to replay: each job's key is `<key>-<subscriber>-<channel>`.
    transactional: bool  # Not accepted here: a fan-out must honour opt-outs (`true` is a 400). Send undeclinable messages one by one with POST /v1/send.
    tags: List['TagDto']  # Provider tags on every job of the batch, stored and sent as a single send's are (e.g. a campaign name); GET /v1/batches/:id shows them.
    channels: List[str]  # Channels to deliver on; one job is queued per channel. Default `["in_app"]`.
    channel: str  # One channel or a comma-separated list (notifyd's older form of `channels`).
    subject: str  # Subject (email, push title). `{{var}}` placeholders are filled from `vars`.
    body: str  # Plain-text body.
    body_html: str  # HTML body (email).
    vars: Dict[str, Any]  # Values for `{{var}}` placeholders.
    scheduled_at: str  # When to send (RFC 3339 with a time zone); default now.
    icon: str  # In-app icon name.
    url: str  # Deep link (in-app, push, chat button).
    sms: 'SmsOptionsDto'
    whatsapp: 'WhatsAppOptionsDto'
    chat: 'ChatOptionsDto'
    push: 'PushOptionsDto'
    topic: str  # What the message is about, for preferences and unsubscribe (lower-cased; default: the template's topic).
    template: str  # Stored template id, rendered per channel (and locale) at send time; channels without a variant use the inline subject/body.
    locale: str  # Language for the template (BCP 47); default: the subscriber's locale. A send with `to` has no subscriber, so this picks its variant (`es-MX` → `es` → default).


class BatchResponseDto(TypedDict):
    success: bool
    batch_id: str  # The batch's id: GET /v1/batches/{batch_id} tells how its jobs are doing.
    jobs_created: float
    jobs_deduplicated: float  # Jobs whose idempotency key was already held by a live or sent job.
    jobs_skipped: float  # Jobs not queued because the address is suppressed, the subscriber opted out, a recipient cap is reached, or the subscriber's address cannot be delivered on the channel.
    jobs_without_address: float  # Subscriber × channel pairs with no address (or unknown subscribers).
    subscribers: float  # Distinct subscribers in the request.
    channels: List[str]
    topic: Optional[str]
    skipped_by_reason: Dict[str, float]  # Every subscriber × channel pair not queued, counted by rule: `suppressed`, `opted_out`, `capped`, `invalid_address` (jobs_skipped), `unknown_subscriber`, `no_address` (jobs_without_address).
    skipped: List['BatchSkipDto']  # The first 100 pairs not queued, each with its reason (skipped_by_reason counts them all).


class BatchSkipDto(TypedDict):
    subscriber_id: str
    channel: str
    reason: str


class _BatchStatusDtoRequired(TypedDict):
    id: str
    created_at: str  # When the call started.
    completed_at: Optional[str]  # When the call finished queueing (null while a segment is still being read).
    channels: List[str]
    tags: List['TagDto']  # The tags the batch was sent with.
    topic: Optional[str]
    priority: float
    scheduled_at: Optional[str]  # The requested send time (null: at once).
    subscribers: float  # Distinct subscribers read.
    jobs_created: float  # Jobs the call created.
    jobs_deduplicated: float  # Jobs an earlier call already held under the batch's idempotency key.
    skipped_by_reason: Dict[str, float]  # Subscriber × channel pairs not queued, by rule (as in the batch answer).
    jobs: 'BatchJobCountsDto'  # The created jobs by where they are now (jobs past their retention are no longer counted).


class BatchStatusDto(_BatchStatusDtoRequired, total=False):
    segment: Optional[Dict[str, Any]]  # The segment filter, when the batch was sent to one.


class BreakerDto(TypedDict):
    channel: str
    primary: str
    fallback: Optional[str]
    state: str  # closed, open or half_open.
    resting_seconds: Optional[float]


class BulkInboxDto(TypedDict, total=False):
    topic: str  # Only messages of this topic (default: all).


class BulkInboxResponseDto(TypedDict):
    success: bool
    updated: float


class BulkSubscriberErrorDto(TypedDict):
    index: float  # Position of the refused item in `subscribers` (from 0).
    id: Optional[str]  # The item's id when it has one that is text, else null.
    field: Optional[str]  # The field at fault, or null when the item as a whole is wrong (not an object).
    message: str  # What is wrong and how to fix it: the sentence `POST /v1/subscribers` would answer.


class BulkUpsertSubscribersDto(TypedDict):
    subscribers: List['UpsertSubscriberDto']  # 1 to 10 000 subscribers, each exactly what `POST /v1/subscribers` takes (absent fields are kept, `null` clears one, `data` is merged). Each is checked on its own: the valid ones are written even when others are refused. An id given twice is applied in order, as two calls would be (the later fields win, `data` merged), and written once.


class BulkUpsertSubscribersResponseDto(TypedDict):
    created: float  # Subscribers this call created.
    updated: float  # Existing subscribers this call updated.
    duplicates: float  # Items whose id came earlier in the same call: folded into it, so not counted again.
    failed: float  # Items refused (nothing of them was written); `errors` says why.
    errors: List['BulkSubscriberErrorDto']  # One entry per problem (an item with two bad fields has two), in item order.


class CancelJobResponseDto(TypedDict):
    success: bool
    id: str


class CancelRunResponseDto(TypedDict):
    success: bool
    id: str
    digests_cancelled: float  # Digests this run had opened, cancelled with it (their collected events are dropped).


class CapDto(TypedDict):
    id: str
    channel: str
    topic: str
    max_messages: float
    window_seconds: float
    created_at: str
    updated_at: str


class CapListDto(TypedDict):
    data: List['CapDto']


class ChannelReportDto(TypedDict):
    email: 'ChannelStatusDto'
    sms: 'ChannelStatusDto'
    whatsapp: 'ChannelStatusDto'
    push: 'ChannelStatusDto'
    in_app: 'ChannelStatusDto'
    telegram: 'ChannelStatusDto'
    slack: 'ChannelStatusDto'
    discord: 'ChannelStatusDto'


class ChannelStatusDto(TypedDict):
    allowed: bool  # The channel is in the project's channel list (`channels`, set with PATCH /v1/admin/projects/{id}). Informational: /v1/send does not enforce it.
    configured: bool  # This instance delivers the channel: /v1/send will not refuse it. Offer a channel to users when it is both allowed and configured.
    provider: Optional[str]  # The provider the project's messages on this channel go through: its own account's when it has one, else the instance's; null when the channel is not configured.
    own_account: bool  # The project sends this channel through its own provider account (PUT /v1/admin/projects/{id}/providers/{channel}) rather than the instance's.
    fallback_provider: Optional[str]  # The instance's fallback provider for this channel (`<CHANNEL>_FALLBACK_PROVIDER`), used when the primary refuses with a transient or rate-limit error; null when there is none or the project uses its own account (which has no fallback).
    reason: Optional[str]  # Why /v1/send refuses the channel, naming the variable to set; null when it is configured.


class ChannelsResponseDto(TypedDict):
    channels: 'ChannelReportDto'


class ChatBindingDto(TypedDict):
    channel: str
    chat: str
    created_at: str


class ChatBindingListDto(TypedDict):
    project_id: str
    required: bool  # Whether the instance enforces bindings (CHAT_BINDINGS_REQUIRED); when false every project reaches every chat the instance's bots can.
    bindings: List['ChatBindingDto']


class ChatBindingsOfChannelDto(TypedDict):
    project_id: str
    channel: str
    chats: List[str]  # The chats now bound, as stored: Telegram ids without leading zeros, @usernames lower-cased.


class ChatOptionsDto(TypedDict, total=False):
    text: str  # Replaces the text built from subject and body.
    button: str  # Telegram: label of the inline button that opens `url` (default "Open").
    telegram_thread_id: str  # Telegram: forum topic (message_thread_id) in a supergroup; a positive integer or its decimal string.
    telegram_route_id: str  # Telegram: send through an owner's own bot (a route of POST /v1/telegram/lookup) to its verified chat; `to` must be that chat. Never falls back to the instance's bot.


class _CreateProjectDtoRequired(TypedDict):
    id: str  # Slug used in keys and URLs: lowercase letters, digits, `-` and `_`, 1–63 characters.
    name: str  # Human-readable name.


class CreateProjectDto(_CreateProjectDtoRequired, total=False):
    channels: List[str]  # Channels this project intends to use (reported by GET /v1/channels; the columns of its subscribers' preference page).
    rate_limit_per_min: float  # Inbound requests per minute allowed for this project's key.
    settings: Dict[str, Any]  # Free-form project settings (send_window, tracking, preference_topics… as features define them).
    from_email: str  # Sender address for this project's email; unset = the instance's EMAIL_FROM.
    from_name: str  # Display name for this project's email sender.


class CreateProjectResponseDto(TypedDict):
    success: bool
    project: 'CreatedProjectKeyDto'
    warning: str


class CreateSuppressionDto(TypedDict, total=False):
    email: str  # Email address to suppress (notifyd's field; same as `channel: "email"` with `address`).
    channel: str  # Channel of `address` (default `email`). SMS and WhatsApp are separate lists: a STOP on one does not silence the other.
    address: str  # The address on that channel: E.164 phone for sms/whatsapp, chat id or webhook for chat, subscriber id for in_app and push.
    scope: str  # `all` blocks every message (default); `marketing` blocks only marketing/bulk messages.
    detail: str  # Why, for your own records.


class CreateSuppressionResponseDto(TypedDict):
    success: bool
    created: bool  # false when the address was already suppressed (the existing suppression is returned).
    suppression: 'SuppressionDto'


class _CreateWebhookDtoRequired(TypedDict):
    url: str  # Where deliveries are POSTed: a public http(s) URL (private, loopback, link-local and metadata addresses are refused, also when a host name resolves to them).
    events: List[str]  # Events to receive; `*` for all.


class CreateWebhookDto(_CreateWebhookDtoRequired, total=False):
    enabled: bool  # Whether deliveries are sent (default true).
    description: str
    secret: str  # Your own signing secret (`whsec_` + base64 of 24–64 bytes); omit it to get a generated one.
    signature_format: str  # `standard` (Standard Webhooks headers, the default) or `notifyd-0x`: also signed as notifyd 0.x signed (`X-Notifyd-Signature`: hex HMAC-SHA256 of the body keyed by the secret's bytes) and with 0.x's top-level `event`, `job_id`, `channel`, `subscriber_id` in job events, for a receiver written for 0.x. Its secret may then be any 16–200 characters (0.x's were 32 hex).


class CreateWebhookResponseDto(TypedDict):
    success: bool
    id: str
    secret: str  # The signing secret (Standard Webhooks), shown this once.
    warning: str
    webhook: 'WebhookDto'


class CreatedProjectKeyDto(TypedDict):
    id: str
    api_key: str  # The project's API key. It is shown this once; notifyd stores only its SHA-256.


class DatabaseHealthDto(TypedDict):
    jobs_live_tuples: float
    jobs_dead_tuples: float
    jobs_dead_percent: float
    jobs_last_autovacuum: Optional[str]
    jobs_autovacuum_blocked_by: List[str]  # What keeps autovacuum from visiting the jobs table: "server: autovacuum = off", "notifyd sessions: track_counts = off", "table jobs: autovacuum_enabled = false". Empty when nothing does.
    notify_lock_waiters: float  # Active sessions waiting on the NOTIFY commit lock.


class DeleteCapResponseDto(TypedDict):
    success: bool
    id: str


class DeleteTemplateResponseDto(TypedDict):
    success: bool
    deleted: float  # Variants deleted.


class DeleteWebhookResponseDto(TypedDict):
    success: bool
    id: str


class DeleteWorkflowResponseDto(TypedDict):
    success: bool
    id: str


class DeletedChatBindingsDto(TypedDict):
    success: bool
    removed: float  # How many chats were unbound.


class DeletedProjectProviderDto(TypedDict):
    success: bool


class DeliverabilityDto(TypedDict):
    delivered: float
    bounced: float
    complained: Optional[float]  # null when this instance does not record complaints yet.
    bounce_rate_percent: Optional[float]
    complaint_rate_percent: Optional[float]


class DeliveryAttemptDto(TypedDict):
    attempt: float
    at: str
    status_code: Optional[float]
    duration_ms: float
    error: Optional[str]


class DeliveryDto(TypedDict):
    id: str
    webhook_id: str  # The `webhook-id` header: the same on every attempt, so receivers can deduplicate.
    event_type: str
    status: str
    attempts: float
    max_attempts: float
    next_attempt_at: Optional[str]  # When the next attempt is due (retry, pending), else null.
    last_status_code: Optional[float]
    last_error: Optional[str]
    attempt_log: List['DeliveryAttemptDto']
    payload: Dict[str, Any]  # The JSON body sent: {type, timestamp, data}.
    created_at: str
    finished_at: Optional[str]


class DeliveryListDto(TypedDict):
    items: List['DeliveryDto']
    next_cursor: Optional[str]
    limit: float


class DeliveryResponseDto(TypedDict):
    success: bool
    delivery: 'DeliveryDto'


class DigestInstanceDto(TypedDict):
    version: str
    role: str
    uptime_seconds: float
    public_url: Optional[str]
    providers: Dict[str, Any]  # Provider per channel, null when not configured.
    email_from: Optional[str]  # EMAIL_FROM, or null when left at notifyd's placeholder.
    email_fallback_provider: Optional[str]
    breakers: List['BreakerDto']
    paused_lanes: List[str]


class DigestLaneDto(TypedDict):
    lane: str
    channel: str
    provider: str
    project_id: Optional[str]
    effective_rate: float  # Tokens per second in force now; 0 when the lane is unpaced (see paced).
    configured_rate: float
    paced: bool  # False when the lane is unpaced (rate 0: no rate limit of notifyd's own).
    rate_text: str  # The rate in force in words: "8/s" or "unpaced" (never a bare 0).
    paused_until: Optional[str]
    pause_kind: Optional[str]
    pause_reason: Optional[str]


class DigestNotifyRequestDto(TypedDict, total=False):
    to: str  # Where to send: slack:<incoming webhook URL>, discord:<webhook URL>, telegram:<chat id or @channel> or email:<address>. Default: DIGEST_NOTIFY.
    window: str  # Window to report on (1h, 6h, 24h, 7d, 30d); default: the one matching DIGEST_NOTIFY_EVERY.


class DigestNotifyResponseDto(TypedDict):
    success: bool
    provider: str  # slack, discord, telegram or the email provider.
    provider_message_id: Optional[str]  # The message id where the target returns one (Discord, Telegram, email providers).
    window: str
    summary: 'SeveritySummaryDto'


class DigestProjectDto(TypedDict):
    id: str
    name: str
    channels: List[str]
    from_email: Optional[str]
    from_name: Optional[str]
    rate_limit_per_min: float
    sent: float
    failed: float


class DigestQueueDto(TypedDict):
    pending: float
    processing: float
    retry: float
    stuck_processing: float  # Jobs processing for longer than WORKER_LEASE_SECS.
    due: float  # Pending or retry jobs due now (run_at passed): a worker should be claiming them.
    late: float  # Pending or retry jobs whose requested time (scheduled_at) has passed.
    oldest_waiting_seconds: 'OldestWaitingDto'  # How late the oldest late job of each band is, from the time its sender asked for (not the fair-share slot).


class DigestReportDto(TypedDict):
    window: str
    window_seconds: float
    since: str
    generated_at: str
    findings: List['FindingDto']  # Ranked critical → warning → info; an all_quiet info finding when nothing needs attention.
    summary: 'SeveritySummaryDto'
    instance: 'DigestInstanceDto'
    queue: 'DigestQueueDto'
    waiting: List['WaitingDto']  # Live jobs per channel: what waits, how late, for which projects.
    retrying: List['RetryingDto']  # Jobs retrying now after a transient error, per channel × provider (most first).
    workers: 'DigestWorkersDto'  # Worker processes, from their heartbeats.
    outcomes: List['OutcomeDto']
    failures: List['FailureCauseDto']  # Top ten causes of failed jobs in the window.
    retries_waiting: List['RetriesWaitingDto']
    latency: List['LatencyDto']
    deliverability: 'DeliverabilityDto'
    projects: List['DigestProjectDto']
    lanes: List['DigestLaneDto']
    webhooks_disabled: List['DisabledWebhookDto']
    webhooks_paused: List['PausedWebhookDto']  # Enabled outbound webhook endpoints paused by their circuit breaker now (after 5 failed attempts in a row): their deliveries wait, attempts unspent, until a probe succeeds. Newest pause first, 100 at most.
    database: 'DatabaseHealthDto'
    last_finished_at: Optional[str]
    lease_seconds: float  # WORKER_LEASE_SECS.


class DigestWorkersDto(TypedDict):
    alive: float  # Worker processes whose heartbeat is younger than alive_within_seconds.
    last_beat_at: Optional[str]
    alive_within_seconds: float
    processes: List['WorkerProcessDto']  # Newest beat first, at most 20.


class DisabledWebhookDto(TypedDict):
    id: str
    project_id: str
    host: str  # Host only: a path may carry a token.
    disabled_at: str
    reason: str


class EmailEnvelopeDto(TypedDict):
    to: List[str]
    cc: List[str]
    reply_to: Optional[str]


class ErrorDto(TypedDict):
    error: str  # Stable machine-readable error code
    message: str  # What is wrong and how to fix it


class FailureCauseDto(TypedDict):
    channel: str
    reason: str  # Normalised: ids and numbers → # (a 3-digit HTTP status 100–599 is kept), addresses → <*@domain>; at most 160 characters.
    count: float
    projects: float  # Projects whose jobs failed with it (exact).
    project_ids: List[str]  # Their ids (at most 20).
    sample_job_id: str  # The newest job with this cause.
    last_seen: str


class FindingCallDto(TypedDict):
    tool: str  # An MCP tool name.
    arguments: Dict[str, Any]  # Its exact arguments.
    admin: bool  # True when the tool changes state and needs the admin key.
    purpose: str


class _FindingDtoRequired(TypedDict):
    severity: str  # critical, warning or info.
    code: str  # Stable code (docs/OPERATIONS.md lists every one).
    message: str
    action: str  # What fixes it: names the endpoint, MCP tool or variable.
    evidence: Dict[str, Any]  # The readings that made the rule fire.


class FindingDto(_FindingDtoRequired, total=False):
    harm: 'HarmDto'  # On findings about something failing now: what it costs; findings of one severity are ranked by it.
    owner: str  # Who must act: operator (this instance's settings, providers, lanes) or caller (the application sending for a project).
    project_ids: List[str]  # With owner caller: the projects whose callers must act.
    calls: List['FindingCallDto']  # The exact MCP calls that check and fix it, in order.


class HarmDto(TypedDict):
    held: float  # Messages late (their requested time has passed) and not sent because of it.
    lost: float  # Messages given up on (failed) because of it, in the window.
    projects: float  # Projects with held or lost messages.
    channels: List[str]
    seconds: Optional[float]  # How long the oldest held message has been late, in seconds; null when unknown.


class HealthDto(TypedDict):
    status: str  # ok, or degraded when the database does not answer or when no worker is alive while due jobs wait (`reason` says which). Always HTTP 200: this is liveness, and restarting this process fixes neither; alert on `degraded`.
    db: str
    version: str
    commit: str  # The git commit this build was made from (`npm run build` records it; a Docker build takes the NOTIFYD_COMMIT build argument); "unknown" when neither was available.
    built_at_epoch: Optional[float]  # When the build ran, in epoch seconds (NOTIFYD_BUILT_AT overrides it); null when unknown.
    role: str  # all, api or worker (NOTIFYD_ROLE).
    uptime_seconds: float
    workers: Optional['WorkersHealthDto']  # The worker heartbeats; null while the database does not answer.
    reason: Optional[str]  # Why the status is degraded and what fixes it; null when ok.


class InboxCountsDto(TypedDict):
    unread_count: float  # Unread, unarchived messages not snoozed (the badge).
    unseen_count: float  # Messages never seen (the bell not opened since they arrived).
    total: float


class _InboxListDtoRequired(TypedDict):
    items: List['InboxMessageDto']
    next_cursor: Optional[str]
    limit: float


class InboxListDto(_InboxListDtoRequired, total=False):
    offset: float  # Deprecated, with `offset` only (notifyd 0.x's paging): the offset asked for.
    total: float  # Deprecated, with `offset` only: the subscriber's unarchived messages, as notifyd 0.x counted them.


class InboxMessageDto(TypedDict):
    id: str
    title: Optional[str]
    body: str
    icon: str
    url: Optional[str]
    data: Dict[str, Any]
    topic: Optional[str]
    is_read: bool
    read_at: Optional[str]
    is_seen: bool
    seen_at: Optional[str]
    is_archived: bool
    archived_at: Optional[str]
    is_todo: bool
    snoozed_until: Optional[str]
    created_at: str


class InboxMessageResponseDto(TypedDict):
    success: bool
    message: 'InboxMessageDto'


class JobAttemptDto(TypedDict):
    at: str
    attempt: float  # The attempt number its claim gave it.
    outcome: str  # retry (transient error, due again), failed, rate_limited (the lane paused; no attempt used) or deferred (no attempt used).
    counted: bool  # False when it did not use one of the job's attempts.
    provider: Optional[str]
    error: Optional[str]
    next_at: Optional[str]  # When the job was due again (retry, rate_limited, deferred).


class JobDto(TypedDict):
    id: str
    channel: str
    subscriber_id: Optional[str]
    recipient: str
    template_id: Optional[str]
    topic: Optional[str]
    status: str  # pending, processing, retry, sent, failed, cancelled or bounced.
    priority: float
    scheduled_at: str
    next_retry_at: Optional[str]  # When a job in `retry` becomes due again.
    attempts: float
    max_attempts: float
    provider: Optional[str]
    provider_message_id: Optional[str]
    error: Optional[str]  # Why the last attempt failed, if it did.
    created_at: str
    created_by: Optional[str]  # Who queued it: the hint of the project key that sent it, admin, mcp (an operator's MCP call) or workflow; null for jobs queued before notifyd recorded it.
    sent_at: Optional[str]
    delivered_at: Optional[str]
    bounced_at: Optional[str]
    opened_at: Optional[str]
    clicked_at: Optional[str]
    complained_at: Optional[str]  # When the recipient reported the message as spam (provider complaint feedback).
    provider_events: List['JobProviderEventDto']  # Delivery evidence reported by the provider (webhooks), oldest first.
    attempt_log: List['JobAttemptDto']  # The attempts that did not end in a send, oldest first: retried after a transient error, failed, rate-limited or deferred (the last two did not use an attempt). A sent attempt is the job itself (provider, provider_message_id, sent_at).
    email_envelope: Optional['EmailEnvelopeDto']  # Email only: who the message was addressed to.
    rendered: 'RenderedContentDto'  # What was sent: the rendered subject and body (bounded, kept as long as the job).


class JobOutcomeDto(TypedDict):
    id: str
    channel: str
    status: str  # pending, processing, retry, sent, failed, cancelled or bounced.
    final: bool  # true when the job will not change on its own any more (sent, failed, cancelled, bounced).
    attempts: float
    provider: Optional[str]
    provider_message_id: Optional[str]  # The provider's id for the message: its answer, when it accepted it.
    error: Optional[str]  # What the provider (or notifyd) said when the attempt failed.
    sent_at: Optional[str]
    next_retry_at: Optional[str]  # When a job in `retry` is tried again.


class JobProviderEventDto(TypedDict):
    provider: str
    type: str  # The provider's own event name.
    kind: str  # What it meant for the job: delivered, bounced, soft_bounced, complained, opened, clicked or other.
    occurred_at: str
    provider_message_id: Optional[str]
    recipients: List[str]
    error: Optional[str]


class LaneDto(TypedDict):
    lane: str  # The lane's id: channel:provider, or channel:provider:project for a project with its own credentials.
    channel: str
    provider: str
    project_id: Optional[str]
    active: bool  # True when the channel sends through this provider now (a lane of a former provider is kept for its history).
    rate: float  # Configured tokens per second, shared by every replica (0 = unpaced).
    paced: bool  # False when the lane is unpaced (rate 0): notifyd calls the provider as fast as it answers.
    rate_text: str  # The rate in force, in words: "8/s", or "unpaced" (never a bare 0, which reads as "stopped").
    burst: float  # Tokens an idle lane may spend at once.
    effective_rate: float  # Rate in force now: the configured one, or lower while the provider's quota headers ask for it.
    tokens: Optional[float]  # Tokens available right now (null when unpaced).
    adaptive_rate: Optional[float]  # Rate set by the provider's quota headers, in force until adaptive_until.
    adaptive_until: Optional[str]
    paused: bool  # True while no replica claims or calls this lane.
    paused_until: Optional[str]
    pause_kind: Optional[str]  # Why: rate_limited (a 429), quota_exhausted (daily/monthly cap), quota_headers (window spent), operator.
    pause_reason: Optional[str]
    paused_at: Optional[str]
    quota: 'LaneQuotaDto'
    totals: 'LaneTotalsDto'


class LaneListDto(TypedDict):
    lanes: List['LaneDto']


class LaneQuotaDto(TypedDict):
    remaining: Optional[float]  # Calls (or messages) left in the provider's current window, from its last quota headers.
    limit: Optional[float]
    reset_at: Optional[str]


class LaneTotalsDto(TypedDict):
    calls: float  # Provider calls paced on this lane since it was created (all replicas).
    tokens: float  # Tokens spent (calls, or messages where the provider meters messages).
    pauses: float  # Times the lane was paused.
    waited_ms: float  # Milliseconds calls waited for their slot, summed.


class LatencyDto(TypedDict):
    channel: str
    p50_seconds: float
    p95_seconds: float
    samples: float


class MetricsSummaryDto(TypedDict):
    jobs_pending: float  # Jobs waiting for their first attempt.
    jobs_retry: float  # Jobs waiting for a retry after a transient failure (0.x counted them as pending; they are apart here).
    jobs_processing: float  # Jobs a worker holds now.
    jobs_sent_24h: float  # Jobs a provider accepted in the last 24 hours (those closed without a provider call, e.g. opted out, excluded).
    jobs_failed_24h: float  # Jobs that failed for good in the last 24 hours.
    subscribers_total: float
    inbox_messages_total: float
    active_workflow_runs: float  # Workflow runs not finished: pending, processing or waiting (a delay, a digest window).
    uptime_seconds: float  # Seconds since this process started.


class OldestWaitingDto(TypedDict):
    urgent: Optional[float]  # Seconds; priority below 50.
    normal: Optional[float]  # Seconds; priority 50–79.
    bulk: Optional[float]  # Seconds; priority 80 and above.


class OutcomeDto(TypedDict):
    channel: str
    provider: str
    sent: float
    failed: float
    bounced: float
    cancelled: float


class PauseLaneRequestDto(TypedDict, total=False):
    duration_secs: float  # How long to pause, in seconds (default 3600, at most 30 days). The pause ends by itself; resume earlier with POST …/resume.
    reason: str  # Why, for the other operators (shown in the lane state and the digest).


class PausedWebhookDto(TypedDict):
    id: str
    project_id: str
    host: str  # Host only: a path may carry a token.
    last_failure_at: Optional[str]  # The failed attempt that set the current pause (each failed probe sets a longer one).
    paused_until: str  # When the pause ends and one delivery goes as a probe.
    consecutive_failures: float  # Failed attempts in a row; the pause starts at 5.


class PreferenceCellDto(TypedDict):
    channel: str
    topic: str
    enabled: bool  # Whether a message of this topic on this channel reaches the subscriber, as the preference rule decides it now.
    switchable: bool  # False for a transactional topic.


class PreferenceChoiceDto(TypedDict):
    channel: str
    topic: str
    enabled: bool


class PreferenceDto(TypedDict):
    channel: str
    topic: Optional[str]  # The topic of a topic-scoped row, else null.
    workflow_id: str  # notifyd's scope column: the workflow/template id, the topic of a topic row, or `*`.
    scope_kind: str  # topic, workflow or all.
    enabled: bool
    updated_at: str


class _PreferenceInputDtoRequired(TypedDict):
    channel: str  # A channel, or `*` for every channel.
    enabled: bool  # false opts the subscriber out of this scope; true opts back in (and overrides a broader opt-out).


class PreferenceInputDto(_PreferenceInputDtoRequired, total=False):
    topic: str  # Scope the choice to a topic (wins over workflow_id).
    workflow_id: str  # Scope the choice to a workflow or template id; `*` or absent (with no topic) = everything.


class PreferenceTopicDto(TypedDict):
    id: str
    label: Optional[str]  # The project's label (settings.preference_topics), else null.
    transactional: bool  # Shown, never switched off by the subscriber.


class PreferencesDto(TypedDict):
    subscriber_id: str
    preferences: List['PreferenceDto']


class PreviewTemplateDto(TypedDict, total=False):
    channel: str  # Which channel's variant; required when the template has several channels.
    locale: str  # Render as for a recipient in this locale (with the usual fallback).
    subscriber_id: str  # Render for this stored subscriber, as a send to them would: their profile is `subscriber` (and `first_name`, `last_name`, `email`, `phone`, `locale`, `timezone` at the top level), their locale picks the variant unless `locale` is given, and `vars` win over profile fields.
    vars: Dict[str, Any]  # Sample variables.
    draft: 'TemplateDraftDto'  # Render this unsaved source instead of the stored variant's (the variant is still picked by channel and locale, and its topic reported): an editor's live preview. Nothing is saved.


class ProjectDto(TypedDict):
    id: str
    name: str
    channels: List[str]
    rate_limit_per_min: float
    settings: Dict[str, Any]
    from_email: Optional[str]
    from_name: Optional[str]
    api_key_hint: Optional[str]  # Prefix and last four characters of the primary key.
    secondary_api_key_hint: Optional[str]  # The previous key, still valid until revoked, if the key was rotated.
    created_at: str
    updated_at: str


class ProjectListDto(TypedDict):
    projects: List['ProjectDto']


class ProjectProviderDto(TypedDict):
    project_id: str
    channel: str
    provider: str
    settings: Dict[str, str]  # Plain settings as stored; secret ones masked (last 4 characters at most).
    key_id: str  # Id of the NOTIFYD_SECRET_KEY the secrets are sealed with (rotation).
    created_at: str
    updated_at: str


class ProjectProviderListDto(TypedDict):
    providers: List['ProjectProviderDto']


class ProjectResponseDto(TypedDict):
    success: bool
    project: 'ProjectDto'


class ProviderWebhookResponseDto(TypedDict):
    success: bool
    recorded: float  # Events seen for the first time: stored on the job and applied.
    duplicates: float  # Events already received before (provider retries): nothing changed.


class PushOptionsDto(TypedDict, total=False):
    badge: float  # App icon badge count (APNs, FCM for iOS).
    sound: str  # Sound file name, `default`, or `none` for a silent alert (APNs).
    thread_id: str  # Groups notifications on the device (APNs thread-id; web push tag).
    category: str  # Notification category with its actions (APNs).
    collapse_id: str  # A newer notification with the same id replaces an undelivered older one (APNs collapse id, FCM collapse_key, web push Topic when it is URL-safe base64 of 32 characters at most).
    mutable_content: bool  # Lets the app's notification service extension modify the content (APNs mutable-content).
    background: bool  # A silent push that wakes the app: no alert, `content-available` (APNs), data-only (FCM).
    ttl_secs: float  # Seconds the push service keeps an undelivered notification (0 = now or never).
    data: Dict[str, Any]  # Custom data for the app or service worker (FCM receives the values as strings).
    icon: str  # Web push: icon URL shown with the notification.
    image: str  # Web push and FCM: a large image URL.


class PushTokenDto(TypedDict):
    id: str
    token: str
    platform: str
    device_name: Optional[str]
    endpoint: Optional[str]
    expiration_time: Optional[float]
    user_agent: Optional[str]
    created_at: str
    last_used_at: str


class PushTokenListDto(TypedDict):
    tokens: List['PushTokenDto']


class PutChatBindingsDto(TypedDict):
    chats: List[str]  # Every chat the project may reach on this channel through the instance's bot; replaces the channel's current list ([] removes them all). Telegram: chat ids or public @channelusernames; Slack: channel ids (C0123ABCD) or #channel-names.


class PutPreferencesDto(TypedDict):
    preferences: List['PreferenceInputDto']  # Rows to write (each upserted by channel × scope); at most 100.


class PutPreferencesResponseDto(TypedDict):
    success: bool
    updated: float  # Rows written.


class PutProjectProviderDto(TypedDict):
    provider: str  # Provider name on this channel (one that supports per-project accounts).
    settings: Dict[str, str]  # The provider's settings for this project's own account; secret ones (API keys, tokens) are encrypted at rest and never returned.


class PutSubscriberPreferencesDto(TypedDict):
    preferences: List['PreferenceChoiceDto']  # Cells to set (a cell already so is left as it is); at most 100.


class PutTelegramBotDto(TypedDict):
    bot_token: str  # The owner's own bot token from @BotFather (never the instance's TELEGRAM_BOT_TOKEN). Stored encrypted; never returned (responses show `token_hint`).
    webhook_base: str  # Public https base URL of this notifyd's Telegram webhook route; the bot's webhook becomes `<webhook_base>/<connection id>`.


class _PutTelegramDestinationDtoRequired(TypedDict):
    address: str  # The chat: a numeric chat id or a public @username; stored as the numeric id Telegram resolves.


class PutTelegramDestinationDto(_PutTelegramDestinationDtoRequired, total=False):
    telegram_thread_id: str  # Forum topic (message_thread_id) of a forum supergroup; a positive integer or its decimal string.


class ReadinessDto(TypedDict):
    ready: bool
    db: str
    pending_migrations: List[str]  # Migrations this build knows that the database has not applied.
    reason: Optional[str]  # Why the instance is not ready, when it is not.


class _RegisterPushTokenDtoRequired(TypedDict):
    subscriber_id: str  # The subscriber who owns the device (create it first with POST /v1/subscribers).


class RegisterPushTokenDto(_RegisterPushTokenDtoRequired, total=False):
    token: str  # FCM registration token or APNs device token (hex). For web push it defaults to `endpoint`.
    platform: str  # `web`, `fcm` or `apns`; default `web` when `endpoint` is given, else `fcm`.
    device_name: str
    endpoint: str  # Web push: the subscription endpoint on the browser's push service (https).
    keys: 'WebPushKeysDto'  # Web push: the subscription's encryption keys.
    expiration_time: Optional[float]  # Web push: when the subscription expires (epoch milliseconds), or null.
    expirationTime: Optional[float]  # The browser's spelling of `expiration_time` (PushSubscription.toJSON()).
    user_agent: str


class RegisterPushTokenResponseDto(TypedDict):
    success: bool
    id: str
    created: bool  # False when the device was already registered (its fields were refreshed).
    token: 'PushTokenDto'


class ReleaseSuppressionResponseDto(TypedDict):
    success: bool
    id: str
    suppression: 'SuppressionDto'


class RenderedContentDto(TypedDict):
    status: str  # kept: rendered by the worker (a template, or inline Liquid) and kept; as_sent: the inline content held no Liquid, so the job's own fields are what was sent; redacted: the project keeps no content (`settings.rendered_content` = "redact"); not_rendered: not rendered yet (queued, or failed before rendering).
    subject: Optional[str]
    body: Optional[str]
    body_html: Optional[str]
    truncated: bool  # Whether the parts were cut to fit 64 KiB together.
    rendered_at: Optional[str]  # When the worker rendered it (its last attempt); null unless kept.


class ResealResultDto(TypedDict):
    resealed: float  # Rows re-encrypted under the current key.
    unreadable: List[str]  # `project/channel` rows no configured key opens (set their credentials again).


class RetriedJobDto(TypedDict):
    id: str
    project_id: str
    channel: str
    status: str


class RetriesWaitingDto(TypedDict):
    channel: str
    attempts: float
    count: float
    next_retry_at: Optional[str]


class RetryJobResponseDto(TypedDict):
    success: bool
    job: 'RetriedJobDto'


class RetryReasonDto(TypedDict):
    reason: str  # Normalised like failures.
    count: float  # Among the sampled retries.


class RetryingDto(TypedDict):
    channel: str
    provider: str
    count: float  # Jobs retrying after this provider failed them (exact).
    projects: float
    project_ids: List[str]  # At most 20.
    oldest_late_seconds: Optional[float]  # Seconds since the requested time of the oldest of these jobs.
    next_retry_at: Optional[str]
    sample_job_id: str  # The newest of these jobs.
    causes: List['RetryReasonDto']  # Their last errors, most common first, counted among the next 200 retries due.


class RotateKeyResponseDto(TypedDict):
    success: bool
    id: str
    new_api_key: str  # The new primary key, shown once.
    note: str


class RotateWebhookSecretDto(TypedDict, total=False):
    overlap_seconds: float  # How long the old secret keeps signing beside the new one, in seconds (default 86400; 0 = stop at once, at most 7 days).


class RotateWebhookSecretResponseDto(TypedDict):
    success: bool
    secret: str  # The new secret, shown this once.
    previous_secret_valid_until: Optional[str]  # Until when the previous secret also signs (two signatures per message); null with no overlap.
    webhook: 'WebhookDto'


class _RunHistoryEntryDtoRequired(TypedDict):
    step: float
    type: str
    at: str


class RunHistoryEntryDto(_RunHistoryEntryDtoRequired, total=False):
    result: str
    job_ids: List[str]
    run_id: str  # The run a trigger_workflow step started.
    detail: str


class RunParentDto(TypedDict):
    run_id: str
    workflow_id: str
    depth: float  # Runs started one inside the other above this one, this one included (at most 5).


class SegmentPreviewDto(TypedDict):
    count: float  # Subscribers of the project that match.
    sample: List[str]  # Up to ten matching subscriber ids, oldest first.


class SendRequestDto(TypedDict, total=False):
    priority: Any  # critical (10), high (30), normal (50), low (70), bulk (80) or 0–100; lower goes first.
    send_window: Any  # When this message may be sent, in the recipient's time zone (overrides the project's window); `false` sends at any time. A job outside its window waits for the next opening.
    track: Any  # Own open/click tracking for this message: `false` turns it off, `{opens, clicks}` narrows it; `true` or an object opts a transactional email in. Never more than the project allows.
    to: str  # Explicit address used on every requested channel (email, E.164 phone, chat id…).
    subscriber_id: str  # Subscriber to address from the stored profile (one of `to` or `subscriber_id` is required).
    idempotency_key: str  # Makes the request safe to retry: a key held by a live or sent job returns that job; a failed or cancelled job frees it.
    tags: List['TagDto']  # Provider tags; `category` = campaign, marketing, newsletter or bulk makes the send a campaign (default priority bulk).
    email_headers: Dict[str, str]  # Extra email headers (no line breaks; To/From/Cc/Bcc/Subject are set through their fields).
    cc: List[str]  # Carbon copies (email), at most 10.
    reply_to: str
    attachments: List['AttachmentDto']  # Email attachments (base64), at most 10.
    wait: str  # Hold the answer until every queued job is final (sent, failed…) or this much time has passed, at most 30s; the answer then carries `outcomes` (the provider's answer) and `timed_out`. Without it the answer comes as soon as the jobs are queued.
    transactional: bool  # An undeclinable message (receipt, password reset): preferences are not applied, at enqueue or at send time. Suppressions still are.
    channels: List[str]  # Channels to deliver on; one job is queued per channel. Default `["in_app"]`.
    channel: str  # One channel or a comma-separated list (notifyd's older form of `channels`).
    subject: str  # Subject (email, push title). `{{var}}` placeholders are filled from `vars`.
    body: str  # Plain-text body.
    body_html: str  # HTML body (email).
    vars: Dict[str, Any]  # Values for `{{var}}` placeholders.
    scheduled_at: str  # When to send (RFC 3339 with a time zone); default now.
    icon: str  # In-app icon name.
    url: str  # Deep link (in-app, push, chat button).
    sms: 'SmsOptionsDto'
    whatsapp: 'WhatsAppOptionsDto'
    chat: 'ChatOptionsDto'
    push: 'PushOptionsDto'
    topic: str  # What the message is about, for preferences and unsubscribe (lower-cased; default: the template's topic).
    template: str  # Stored template id, rendered per channel (and locale) at send time; channels without a variant use the inline subject/body.
    locale: str  # Language for the template (BCP 47); default: the subscriber's locale. A send with `to` has no subscriber, so this picks its variant (`es-MX` → `es` → default).


class _SendResponseDtoRequired(TypedDict):
    success: bool
    job_ids: List[str]  # One job per queued channel, in the order of `channels`.
    scheduled_at: str
    channels: List[str]  # Channels queued.
    topic: Optional[str]  # The message's topic (the request's, else the template's).
    skipped: List['SkippedChannelDto']
    deduplicated: bool  # true when an idempotency key returned jobs queued by an earlier request.


class SendResponseDto(_SendResponseDtoRequired, total=False):
    outcomes: List['JobOutcomeDto']  # With `wait` only: each job's state when the answer was sent, in the order of `job_ids`.
    timed_out: bool  # With `wait` only: true when the time ran out before every job was final; read the jobs later with GET /v1/jobs/{id} (which also accepts `wait`).


class _SendTestRequestDtoRequired(TypedDict):
    project_id: str
    channel: str
    to: str


class SendTestRequestDto(_SendTestRequestDtoRequired, total=False):
    subject: str
    body: str


class SendTestResponseDto(TypedDict):
    id: str
    project_id: str
    channel: str
    status: str


class _SendWindowDtoRequired(TypedDict):
    start: str  # Opening time, 24-hour local time.
    end: str  # Closing time (exclusive); earlier than start makes an overnight window.


class SendWindowDto(_SendWindowDtoRequired, total=False):
    applies_to: str  # marketing (default): bulk priority or campaign-tagged jobs only; all: every job.
    tz: str  # IANA zone for recipients without a valid subscriber time zone; default UTC.
    days: List[float]  # ISO weekdays the window opens on, 1 = Monday … 7 = Sunday; default every day.


class SendWindowResponseDto(TypedDict):
    send_window: Optional['SendWindowDto']  # The project's window with defaults filled in; null when the project sends at any time.


class _SetCapDtoRequired(TypedDict):
    max_messages: float  # At most this many messages per subscriber within the window (1–100 000).
    window_seconds: float  # The sliding window, in seconds (60 s to 31 days).


class SetCapDto(_SetCapDtoRequired, total=False):
    channel: str  # A channel, or "*" (default) for all channels together.
    topic: str  # A topic (1–64 of a-z 0-9 - _ . :), or "*" (default) for every message whatever its topic.


class SetCapResponseDto(TypedDict):
    success: bool
    created: bool  # false when an existing cap of this channel and topic was replaced.
    cap: 'CapDto'


class SeveritySummaryDto(TypedDict):
    critical: float
    warning: float
    info: float


class SkippedChannelDto(TypedDict):
    channel: str
    reason: str


SmsOptionsDto = TypedDict('SmsOptionsDto', {'from': str}, total=False)


class StreamTicketResponseDto(TypedDict):
    ticket: str  # Single use, for `GET …/stream?ticket=`.
    expires_in_seconds: float
    stream_url: str


class _SubscriberDtoRequired(TypedDict):
    id: str
    email: Optional[str]
    phone: Optional[str]
    first_name: Optional[str]
    last_name: Optional[str]
    locale: Optional[str]
    timezone: Optional[str]
    data: Dict[str, Any]
    created_at: str
    updated_at: str


class SubscriberDto(_SubscriberDtoRequired, total=False):
    withheld_data_keys: List[str]  # Only in answers to the read-only operator key: `data` can hold webhook URLs and other secrets, so its values are withheld (`data` is then `{}`) and this names its keys, sorted.


class _SubscriberListDtoRequired(TypedDict):
    items: List['SubscriberDto']
    next_cursor: Optional[str]  # Pass as `cursor` to get the next page; null on the last page.
    limit: float


class SubscriberListDto(_SubscriberListDtoRequired, total=False):
    offset: float  # Deprecated, with `offset` only (notifyd 0.x's paging): the offset asked for.
    total: float  # Deprecated, with `offset` only: the subscribers matching `q`, as notifyd 0.x counted them.


class SubscriberPreferencesDto(TypedDict):
    subscriber_id: str
    channels: List[str]  # The subscriber's channels: the project's, without those it has no address for.
    topics: List['PreferenceTopicDto']  # The project's topics (settings.preference_topics), then marketing, then any the subscriber has a choice for.
    preferences: List['PreferenceCellDto']  # One cell per topic × channel.
    page_url: str  # A fresh signed link to the subscriber's hosted preference page (400 days): absolute under PUBLIC_URL, else a path on this API.


class _SubscriberTokenDtoRequired(TypedDict):
    subscriber_id: str


class SubscriberTokenDto(_SubscriberTokenDtoRequired, total=False):
    ttl_hours: float  # Lifetime in hours, 1–24 (default 2).


class SubscriberTokenResponseDto(TypedDict):
    token: str
    subscriber_id: str
    project_id: str
    expires_at: str
    ttl_hours: float


class SuccessDto(TypedDict):
    success: bool


class SuppressionDto(TypedDict):
    id: str
    project_id: str
    channel: str
    address: str  # Normalised address (email lower-cased, phone E.164).
    email: Optional[str]  # The address when the channel is email, else null (notifyd's field).
    scope: str
    reason: str  # bounce, complaint, manual, unsubscribe, stop or invalid.
    source: str  # Who created it: api_key, admin, mcp, worker, a provider webhook, unsubscribe.
    detail: Optional[str]
    evidence: Dict[str, Any]  # Provider facts behind it (provider, code, bounce type…).
    source_job_id: Optional[str]
    provider_event_id: Optional[str]
    created_at: str
    released_at: Optional[str]
    released_by: Optional[str]
    release_reason: Optional[str]


class SuppressionListDto(TypedDict):
    data: List['SuppressionDto']
    next_cursor: Optional[str]  # Pass as `cursor` for the next page; null on the last page.


class SuppressionResponseDto(TypedDict):
    success: bool
    suppression: 'SuppressionDto'


class TagDto(TypedDict):
    name: str  # Letters, digits, _ or -; not starting with `notifyd_` (reserved).
    value: str


class TelegramBotDto(TypedDict):
    route_id: str  # The route id sends name in chat.telegram_route_id.
    bot_username: str
    owned: bool
    source: str
    token_hint: str  # The token's last four characters; the token itself is never returned.
    webhook_registered: bool
    can_link: bool  # Whether POST /v1/telegram/:owner/link can pair a chat.


class TelegramBotResponseDto(TypedDict):
    data: 'TelegramBotDto'


class TelegramDestinationDto(TypedDict):
    channel: str
    address_masked: str
    verified: bool
    created_at: str
    telegram_thread_id: Optional[str]
    telegram_bot_username: Optional[str]


class TelegramDestinationResponseDto(TypedDict):
    data: 'TelegramDestinationDto'


class TelegramLinkDto(TypedDict, total=False):
    kind: str  # `private` (default): a link that opens a chat with the bot; `group`: one that adds the bot to a group.


class TelegramLinkResponseDto(TypedDict):
    data: 'TelegramLinkViewDto'


class TelegramLinkViewDto(TypedDict):
    deep_link: str
    expires_at: str
    command: str


class TelegramLookupDto(TypedDict):
    owners: List[str]  # The owners whose verified chats to return (at most 100).


class TelegramLookupResponseDto(TypedDict):
    data: List['TelegramLookupRowDto']


class TelegramLookupRowDto(TypedDict):
    owner: str
    route_id: str
    address: str
    telegram_thread_id: Optional[str]
    bot_username: str
    verified: bool


class TelegramOwnerResponseDto(TypedDict):
    data: 'TelegramOwnerViewDto'


class TelegramOwnerViewDto(TypedDict):
    bot: Optional['TelegramBotDto']
    destination: Optional['TelegramDestinationDto']


class TelegramWebhookResponseDto(TypedDict):
    ok: bool
    linked: bool  # Whether this update paired a chat.


class _TemplateDraftDtoRequired(TypedDict):
    body: str


class TemplateDraftDto(_TemplateDraftDtoRequired, total=False):
    subject: str
    body_html: str


class TemplateDto(TypedDict):
    template_id: str
    variants: List['TemplateVariantDto']


class TemplateFunnelRowDto(TypedDict):
    template: str  # The job's template id, else its `template` tag, else its `category` tag, else `untemplated`.
    bucket: str  # Start of the bucket.
    sent: float
    failed: float
    delivered: float
    bounced: float
    complained: float
    opened: float
    clicked: float


class TemplateListDto(TypedDict):
    items: List['TemplateVariantDto']
    next_cursor: Optional[str]  # Pass as `cursor` to get the next page; null on the last page.
    total: float  # Variants in the whole listing (of `channel` if given), not only this page.
    limit: float
    offset: float  # The `offset` asked for (0 without one). Deprecated with the `offset` parameter.


class TemplateMetricsDto(TypedDict):
    window: str
    bucket: str
    rows: List['TemplateFunnelRowDto']


class TemplatePreviewDto(TypedDict):
    template_id: str
    channel: str
    locale: Optional[str]  # The variant used (null = default).
    subject: Optional[str]
    body: str
    body_html: Optional[str]
    topic: Optional[str]


class TemplateVariantDto(TypedDict):
    id: str
    channel: str
    locale: Optional[str]  # null for the channel's default variant.
    subject: Optional[str]
    body: str
    body_html: Optional[str]
    topic: Optional[str]
    created_at: str
    updated_at: str


class TraceAttemptDto(TypedDict):
    at: str
    attempt: float  # The attempt number its claim gave it.
    outcome: str  # retry (transient error, due again), failed, rate_limited (the lane paused; no attempt used) or deferred (no attempt used).
    counted: bool  # False when it did not use one of the job's attempts.
    provider: Optional[str]
    error: Optional[str]
    next_at: Optional[str]  # When the job was due again (retry, rate_limited, deferred).


class TraceDto(TypedDict):
    recipient: 'TraceRecipientDto'
    messages: List['TraceMessageDto']  # Newest first.
    count: float
    verdicts: Dict[str, float]  # How many messages per verdict.
    truncated: bool  # True when more messages matched than `limit`: narrow the time range.
    since: str
    until: str


class TraceEventDto(TypedDict):
    at: str
    event: str  # created, attempt_retry, sent, delivered, bounced…
    detail: Optional[str]
    actor: Optional[str]


class _TraceMessageDtoRequired(TypedDict):
    kind: str  # job: it was queued; refusal: admission refused it and no job exists.
    job_id: Optional[str]  # The job's id, or null for a refusal.
    project_id: str
    channel: str
    recipient: str  # Masked for operator keys; empty when the target had no address.
    subscriber_id: Optional[str]
    created_at: str  # When notifyd was asked.
    status: str  # The job's status, or `refused`.
    verdict: str  # refused (not queued, or dropped by a rule at send time), waiting, sending, sent, delivered, bounced, complained, failed or cancelled.
    rule: Optional[str]  # The rule behind a refusal: suppressed, opted_out, capped, invalid_address, no_address, unknown_subscriber, not_configured, skipped_at_send.
    reason: str  # What decided it, in words.
    created_by: Optional[str]  # Who asked: a project key's hint, admin, mcp or workflow.
    provider: Optional[str]
    provider_message_id: Optional[str]
    attempts: float
    waiting: Optional['TraceWaitingDto']  # What holds a waiting job, and until when.
    attempt_log: List['TraceAttemptDto']  # Every attempt that did not end in a send, with the provider's answer (job_attempts).
    provider_events: List['TraceProviderEventDto']  # Provider webhook evidence: delivered, bounced, complained…
    suppression: Optional['TraceSuppressionDto']  # For a refusal by suppression: the suppression, with its evidence.
    events: List['TraceEventDto']  # The job's moments in order (as job_timeline tells them).


class TraceMessageDto(_TraceMessageDtoRequired, total=False):
    attempt_log_omitted: float  # How many older attempts attempt_log leaves out (counted up to 10 000): a trace shows each job's newest 50. Absent when none was left out; the job's own view (GET /v1/jobs/{id}, for operators GET /v1/admin/jobs/{id}) lists its first 200.
    provider_events_omitted: float  # How many older provider events provider_events leaves out (counted up to 10 000): a trace shows each job's newest 50. Absent when none was left out; the job's own view (GET /v1/jobs/{id}, for operators GET /v1/admin/jobs/{id}) lists its first 100.


class TraceProviderEventDto(TypedDict):
    provider: str
    type: str
    kind: str  # delivered, bounced, soft_bounced, complained, opened, clicked or other.
    occurred_at: str
    error: Optional[str]


class TraceRecipientDto(TypedDict):
    addresses: List[str]  # The addresses searched: the one given and those of the subscribers found (masked for operator keys).
    subscribers: List['TraceSubscriberDto']  # The subscribers the recipient resolved to (by id, email or phone).
    suppressions: List['TraceSuppressionDto']  # Active suppressions of those addresses, with their evidence.


class TraceSubscriberDto(TypedDict):
    project_id: str
    id: str
    email: Optional[str]  # Masked for operator keys.
    phone: Optional[str]  # Masked for operator keys.


class TraceSuppressionDto(TypedDict):
    id: str
    project_id: str
    channel: str
    address: str  # Masked for operator keys.
    reason: str
    scope: str
    source: str  # Who created it: api_key, admin, worker, resend-webhook…
    detail: Optional[str]
    evidence: Dict[str, Any]  # Provider facts behind it (event type, bounce type, provider code…).
    source_job_id: Optional[str]  # The job whose bounce or complaint made it.
    created_at: str


class TraceWaitingDto(TypedDict):
    holds: str  # lane_paused, scheduled, retry, deferred or due.
    until: Optional[str]
    reason: str
    lane: Optional[str]


class _TriggerWorkflowDtoRequired(TypedDict):
    event: str
    subscriber_id: str


class TriggerWorkflowDto(_TriggerWorkflowDtoRequired, total=False):
    payload: Dict[str, Any]  # Data for conditions and templates (`{{order_id}}`, `{{order.total}}`).
    idempotency_key: str  # A replay with the same key starts no new run and returns the first call's runs.


class TriggerWorkflowResponseDto(TypedDict):
    success: bool
    event: str
    workflow_runs: List[str]  # One run per enabled workflow listening to the event.
    deduplicated: bool  # true when an idempotency key replay returned earlier runs.


class UpdateMessageDto(TypedDict, total=False):
    read: bool
    seen: bool
    archived: bool
    is_todo: bool
    snoozed_until: Optional[str]  # Hide the message until then (RFC 3339, in the future); null ends a snooze.


class UpdateProjectDto(TypedDict, total=False):
    name: str
    channels: List[str]
    from_email: Optional[str]  # Sender address; `null` or `""` clears it (the instance default applies).
    from_name: Optional[str]
    rate_limit_per_min: float
    settings: Dict[str, Any]  # Settings merged into the current ones (top-level keys replace).
    send_window: Optional[Dict[str, Any]]  # notifyd 0.x's form of `settings.send_window` (still accepted): a window object {start, end, tz, days, applies_to}, checked as everywhere; `null` removes it.
    tracking: Dict[str, Any]  # notifyd 0.x's form of `settings.tracking` (still accepted): `true`/`false`, or {opens, clicks, applies_to: "marketing" | "all"}; `null` restores the default (marketing email tracked).


class UpdateWebhookDto(TypedDict, total=False):
    url: str
    events: List[str]
    enabled: bool  # false stops deliveries and cancels those queued; true re-enables a disabled endpoint (it receives new events only).
    description: Optional[str]


class _UpsertSubscriberDtoRequired(TypedDict):
    id: str  # Your own id for this person; every later call refers to them by it.


class UpsertSubscriberDto(_UpsertSubscriberDtoRequired, total=False):
    email: Optional[str]  # Address for the email channel; `null` clears it, absent keeps it.
    phone: Optional[str]  # Number for SMS and WhatsApp in E.164 form; `null` clears it.
    first_name: Optional[str]
    last_name: Optional[str]
    locale: Optional[str]  # BCP 47 language tag used to pick template variants (stored canonical: `es-mx` → `es-MX`).
    timezone: Optional[str]  # IANA time zone for send windows and quiet hours.
    data: Dict[str, Any]  # Free-form attributes, shallow-merged into the stored ones (chat ids live here: `telegram_chat_id`, `slack`, `discord_webhook`).


class UpsertSubscriberResponseDto(TypedDict):
    success: bool
    id: str
    project_id: str
    created: bool  # true when this call created the subscriber.


class _UpsertTemplateDtoRequired(TypedDict):
    id: str  # Your name for the template; sends refer to it as `template`.
    channel: str
    body: str  # Plain-text body; Liquid (`{{var}}`, filters, `{% if %}`, `{% for %}`), not escaped.


class UpsertTemplateDto(_UpsertTemplateDtoRequired, total=False):
    locale: str  # Language of this variant (BCP 47); absent = the channel's default variant. A recipient in `es-MX` gets `es-MX`, else `es`, else the default.
    subject: str  # Subject (email, push title); Liquid, not escaped.
    body_html: str  # HTML body (email); every `{{ }}` output is HTML-escaped unless piped through `| raw`.
    topic: str  # Default topic of sends that use this template (a request's own topic wins).


class UpsertTemplateResponseDto(TypedDict):
    success: bool
    id: str
    channel: str
    locale: Optional[str]
    created: bool  # true when this call created the variant.


class _UpsertWorkflowDtoRequired(TypedDict):
    steps: List[Dict[str, Any]]  # Steps run in order; jumps are step indexes (the number of steps ends the run). Types: `send` {channel, template_id?, subject?, body?, body_html?, icon?, url?, priority?} — `template_id` names a stored template, rendered at send time in the subscriber's locale (es-MX → es → default) as single sends do; channels without a variant use the inline content; `delay` {duration_secs}; `delay_until` {until | field, offset_secs?} — waits until an RFC 3339 time, given (`until`, ahead, within 365 days) or read from the payload (`field`: payload.<path>) when the run reaches the step, plus `offset_secs` (−30 to +30 days); a past time goes on at once, a missing or unreadable one or one more than 365 days ahead fails the run; `trigger_workflow` {workflow_id, payload_map?} — starts a run of another workflow of the project for the same subscriber, with the trigger payload or `payload_map` ({key: field}); a workflow that would start itself again (directly or through others) is refused, and runs started one inside the other stop at depth 5; `condition` {field, operator, value?, on_true?, on_false?}; `branch` {branches: [{conditions: [{field, operator, value?}], next}], default_next?}; `throttle` {window_secs, limit? (1), key?} — over the limit the run ends; `digest` {window_secs, key?, channel, template_id?, subject?, body?…} — events of one subscriber and key are collected across triggers and sent as one message with `{{item_count}}` and `{{items}}`. Fields: payload.<path>, subscriber.<field>, subscriber.data.<path>, digest.item_count, inbox.is_read. Operators: eq, neq, gt, gte, lt, lte, in, not_in, contains, exists, not_exists. notifyd 0.x steps are accepted too and stored in this form: a send or digest step naming a `template` gets that template's default variant for its channel inlined, and a digest's `duration_secs` becomes `window_secs`.
    id: str
    name: str
    trigger_event: str  # The event name that starts a run (POST /v1/workflows/trigger).


class UpsertWorkflowDto(_UpsertWorkflowDtoRequired, total=False):
    description: str
    enabled: bool


class UpsertWorkflowResponseDto(TypedDict):
    success: bool
    id: str
    project_id: str
    created: bool
    workflow: 'WorkflowDto'


class VapidPublicKeyDto(TypedDict):
    public_key: str  # The VAPID application server key for `pushManager.subscribe({ applicationServerKey })`.


class WaitingDto(TypedDict):
    channel: str
    pending: float
    retry: float
    due: float
    late: float
    oldest_late_seconds: Optional[float]  # Seconds since the requested time of the channel's oldest late job.
    projects_late: float  # Projects with late jobs on the channel.
    by_project: List['WaitingProjectDto']  # Most late jobs first, at most 50.


class WaitingProjectDto(TypedDict):
    project_id: str
    late: float
    due: float
    oldest_late_seconds: Optional[float]


class WebPushKeysDto(TypedDict):
    p256dh: str  # The browser's P-256 public key for payload encryption (URL-safe base64, 65 bytes).
    auth: str  # The browser's authentication secret (URL-safe base64, 16 bytes).


class WebhookDto(TypedDict):
    id: str
    project_id: str
    url: str
    description: Optional[str]
    events: List[str]
    enabled: bool
    secret_hint: str  # The secret is shown once; this is its prefix and last characters.
    signature_format: str  # How deliveries are signed: `standard`, or `notifyd-0x` (also 0.x's X-Notifyd-Signature).
    previous_secret_expires_at: Optional[str]  # Until when the previous secret still signs (after a rotation), else null.
    disabled_at: Optional[str]
    disabled_reason: Optional[str]  # Why notifyd (410 Gone, a refused address, a day of failures) or an operator disabled it.
    last_success_at: Optional[str]
    last_failure_at: Optional[str]
    consecutive_failures: float  # Failed delivery attempts in a row, over all deliveries (a success resets it); from 5 the endpoint is paused.
    paused_until: Optional[str]  # Circuit breaker: while in the future no delivery goes to the endpoint (they stay queued, their attempts untouched); then one probe goes, and a success clears it. Null: not paused.
    created_at: str
    updated_at: str


class WebhookListDto(TypedDict):
    webhooks: List['WebhookDto']
    count: float


class WebhookResponseDto(TypedDict):
    success: bool
    webhook: 'WebhookDto'


class WhatsAppOptionsDto(TypedDict, total=False):
    template: 'WhatsAppTemplateDto'  # Template for the Meta Cloud API (WHATSAPP_PROVIDER=meta).
    content_sid: str  # Twilio Content API template (WHATSAPP_PROVIDER=twilio).
    content_variables: Dict[str, str]  # Variables of the Twilio template, by placeholder number.


class _WhatsAppTemplateDtoRequired(TypedDict):
    name: str  # Template name as approved in WhatsApp Manager.
    language: str  # Language (and locale) of the approved translation.


class WhatsAppTemplateDto(_WhatsAppTemplateDtoRequired, total=False):
    components: List[Dict[str, Any]]  # Parameters as Meta's `components` array (header, body, button parameters), passed through unchanged.


class WorkerProcessDto(TypedDict):
    role: str  # worker or all.
    host: str
    pid: float
    version: str
    started_at: str
    last_beat_at: str
    stopped_at: Optional[str]  # Set when the process stopped gracefully.
    alive: bool


class WorkersHealthDto(TypedDict):
    alive: float  # Worker processes (NOTIFYD_ROLE=worker or all) whose heartbeat is younger than alive_within_seconds.
    last_beat_at: Optional[str]  # The newest heartbeat of any worker process (kept a week); null when none ever beat.
    due_jobs_waiting: bool  # A pending or retrying job is due now and waits for a worker to claim it.
    alive_within_seconds: float


class WorkflowDto(TypedDict):
    id: str
    name: str
    description: Optional[str]
    trigger_event: str
    steps: List[Dict[str, Any]]
    enabled: bool
    created_at: str
    updated_at: str


class WorkflowListDto(TypedDict):
    workflows: List['WorkflowDto']
    count: float


class WorkflowResponseDto(TypedDict):
    success: bool
    workflow: 'WorkflowDto'


class WorkflowRunDto(TypedDict):
    id: str
    workflow_id: str
    subscriber_id: str
    trigger_event: str
    status: str
    current_step: float
    resume_at: Optional[str]  # When a waiting or pending run resumes.
    outcome: Optional[str]  # How a finished run ended: completed, throttled, digested into run …, cancelled, failed.
    error: Optional[str]
    payload: Dict[str, Any]
    history: List['RunHistoryEntryDto']
    triggered_by: Optional['RunParentDto']  # The run whose trigger_workflow step started this one; null for a run started by a trigger.
    created_at: str
    updated_at: str
    finished_at: Optional[str]


class WorkflowRunListDto(TypedDict):
    items: List['WorkflowRunDto']
    next_cursor: Optional[str]
    limit: float


class WorkflowRunResponseDto(TypedDict):
    success: bool
    run: 'WorkflowRunDto'


__all__ = [
    'AdminCreateSuppressionDto',
    'AdminCreateSuppressionResponseDto',
    'AdminCreateWebhookDto',
    'AdminJobListDto',
    'AdminJobSummaryDto',
    'AdminReleaseSuppressionResponseDto',
    'AdminSuppressionDto',
    'AdminSuppressionListDto',
    'AttachmentDto',
    'AuditEntryDto',
    'AuditListDto',
    'BatchJobCountsDto',
    'BatchRequestDto',
    'BatchResponseDto',
    'BatchSkipDto',
    'BatchStatusDto',
    'BreakerDto',
    'BulkInboxDto',
    'BulkInboxResponseDto',
    'BulkSubscriberErrorDto',
    'BulkUpsertSubscribersDto',
    'BulkUpsertSubscribersResponseDto',
    'CancelJobResponseDto',
    'CancelRunResponseDto',
    'CapDto',
    'CapListDto',
    'ChannelReportDto',
    'ChannelStatusDto',
    'ChannelsResponseDto',
    'ChatBindingDto',
    'ChatBindingListDto',
    'ChatBindingsOfChannelDto',
    'ChatOptionsDto',
    'CreateProjectDto',
    'CreateProjectResponseDto',
    'CreateSuppressionDto',
    'CreateSuppressionResponseDto',
    'CreateWebhookDto',
    'CreateWebhookResponseDto',
    'CreatedProjectKeyDto',
    'DatabaseHealthDto',
    'DeleteCapResponseDto',
    'DeleteTemplateResponseDto',
    'DeleteWebhookResponseDto',
    'DeleteWorkflowResponseDto',
    'DeletedChatBindingsDto',
    'DeletedProjectProviderDto',
    'DeliverabilityDto',
    'DeliveryAttemptDto',
    'DeliveryDto',
    'DeliveryListDto',
    'DeliveryResponseDto',
    'DigestInstanceDto',
    'DigestLaneDto',
    'DigestNotifyRequestDto',
    'DigestNotifyResponseDto',
    'DigestProjectDto',
    'DigestQueueDto',
    'DigestReportDto',
    'DigestWorkersDto',
    'DisabledWebhookDto',
    'EmailEnvelopeDto',
    'ErrorDto',
    'FailureCauseDto',
    'FindingCallDto',
    'FindingDto',
    'HarmDto',
    'HealthDto',
    'InboxCountsDto',
    'InboxListDto',
    'InboxMessageDto',
    'InboxMessageResponseDto',
    'JobAttemptDto',
    'JobDto',
    'JobOutcomeDto',
    'JobProviderEventDto',
    'LaneDto',
    'LaneListDto',
    'LaneQuotaDto',
    'LaneTotalsDto',
    'LatencyDto',
    'MetricsSummaryDto',
    'OldestWaitingDto',
    'OutcomeDto',
    'PauseLaneRequestDto',
    'PausedWebhookDto',
    'PreferenceCellDto',
    'PreferenceChoiceDto',
    'PreferenceDto',
    'PreferenceInputDto',
    'PreferenceTopicDto',
    'PreferencesDto',
    'PreviewTemplateDto',
    'ProjectDto',
    'ProjectListDto',
    'ProjectProviderDto',
    'ProjectProviderListDto',
    'ProjectResponseDto',
    'ProviderWebhookResponseDto',
    'PushOptionsDto',
    'PushTokenDto',
    'PushTokenListDto',
    'PutChatBindingsDto',
    'PutPreferencesDto',
    'PutPreferencesResponseDto',
    'PutProjectProviderDto',
    'PutSubscriberPreferencesDto',
    'PutTelegramBotDto',
    'PutTelegramDestinationDto',
    'ReadinessDto',
    'RegisterPushTokenDto',
    'RegisterPushTokenResponseDto',
    'ReleaseSuppressionResponseDto',
    'RenderedContentDto',
    'ResealResultDto',
    'RetriedJobDto',
    'RetriesWaitingDto',
    'RetryJobResponseDto',
    'RetryReasonDto',
    'RetryingDto',
    'RotateKeyResponseDto',
    'RotateWebhookSecretDto',
    'RotateWebhookSecretResponseDto',
    'RunHistoryEntryDto',
    'RunParentDto',
    'SegmentPreviewDto',
    'SendRequestDto',
    'SendResponseDto',
    'SendTestRequestDto',
    'SendTestResponseDto',
    'SendWindowDto',
    'SendWindowResponseDto',
    'SetCapDto',
    'SetCapResponseDto',
    'SeveritySummaryDto',
    'SkippedChannelDto',
    'SmsOptionsDto',
    'StreamTicketResponseDto',
    'SubscriberDto',
    'SubscriberListDto',
    'SubscriberPreferencesDto',
    'SubscriberTokenDto',
    'SubscriberTokenResponseDto',
    'SuccessDto',
    'SuppressionDto',
    'SuppressionListDto',
    'SuppressionResponseDto',
    'TagDto',
    'TelegramBotDto',
    'TelegramBotResponseDto',
    'TelegramDestinationDto',
    'TelegramDestinationResponseDto',
    'TelegramLinkDto',
    'TelegramLinkResponseDto',
    'TelegramLinkViewDto',
    'TelegramLookupDto',
    'TelegramLookupResponseDto',
    'TelegramLookupRowDto',
    'TelegramOwnerResponseDto',
    'TelegramOwnerViewDto',
    'TelegramWebhookResponseDto',
    'TemplateDraftDto',
    'TemplateDto',
    'TemplateFunnelRowDto',
    'TemplateListDto',
    'TemplateMetricsDto',
    'TemplatePreviewDto',
    'TemplateVariantDto',
    'TraceAttemptDto',
    'TraceDto',
    'TraceEventDto',
    'TraceMessageDto',
    'TraceProviderEventDto',
    'TraceRecipientDto',
    'TraceSubscriberDto',
    'TraceSuppressionDto',
    'TraceWaitingDto',
    'TriggerWorkflowDto',
    'TriggerWorkflowResponseDto',
    'UpdateMessageDto',
    'UpdateProjectDto',
    'UpdateWebhookDto',
    'UpsertSubscriberDto',
    'UpsertSubscriberResponseDto',
    'UpsertTemplateDto',
    'UpsertTemplateResponseDto',
    'UpsertWorkflowDto',
    'UpsertWorkflowResponseDto',
    'VapidPublicKeyDto',
    'WaitingDto',
    'WaitingProjectDto',
    'WebPushKeysDto',
    'WebhookDto',
    'WebhookListDto',
    'WebhookResponseDto',
    'WhatsAppOptionsDto',
    'WhatsAppTemplateDto',
    'WorkerProcessDto',
    'WorkersHealthDto',
    'WorkflowDto',
    'WorkflowListDto',
    'WorkflowResponseDto',
    'WorkflowRunDto',
    'WorkflowRunListDto',
    'WorkflowRunResponseDto',
]
