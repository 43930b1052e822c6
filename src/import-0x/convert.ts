import { CHANNELS } from '../domain/channels.js';
import { canonicalLocale } from '../common/validation/locale.js';
import { parseSendWindow } from '../governance/send-windows/send-window.js';
import { normaliseTopic } from '../domain/topic.js';
import { PROJECT_ID_PATTERN, RATE_LIMIT_PER_MIN } from '../projects/project.types.js';
import { E164_PATTERN, SUBSCRIBER_ID_PATTERN } from '../subscribers/dto/subscriber.dto.js';
import { isKnownTimeZone } from '../subscribers/dto/time-zone.validator.js';
import { isWebhookEventType } from '../domain/webhook-event-types.js';

/*
 * One 0.x row → the row notifyd stores, or the reason it cannot be imported. Pure functions: the
 * importer reads, converts and writes. A value notifyd would refuse through its API is refused
 * here too (skipped with a reason) or, for an optional field, dropped with a note, so an import
 * never stores what the API could not.
 */

export type Converted<T> = { row: T; notes: string[] } | { skip: string };

const SHA256_HEX = /^[0-9a-f]{64}$/;
const CHANNEL_ALIASES: Record<string, string> = { inapp: 'in_app', fcm: 'push' };
const channelOf = (c: string) => CHANNEL_ALIASES[c] ?? c;
const isChannel = (c: string) => (CHANNELS as readonly string[]).includes(c);

export interface ProjectRow0x {
  id: string;
  name: string;
  channels: string[] | null;
  api_key_hash: string | null;
  secondary_api_key_hash: string | null;
  rate_limit_per_min: number | null;
  settings: Record<string, unknown> | null;
  from_email: string | null;
  from_name: string | null;
  created_at: Date;
}

/**
 * A project with its key hashes: 0.x stored the SHA-256 hex of each key, exactly as notifyd
 * does (src/projects/auth/api-keys.ts), so the hashes are carried over and the keys keep working.
 * A project without a key hash had no usable key in 0.x (only a TOML-configured one could).
 */
export function convertProject(p: ProjectRow0x): Converted<Record<string, unknown>> {
  if (!PROJECT_ID_PATTERN.test(p.id))
    return {
      skip: `project id '${p.id}' is not a notifyd project id (1–63 of a-z, 0-9, _ and -, starting with a letter or digit)`,
    };
  if (!p.api_key_hash || !SHA256_HEX.test(p.api_key_hash)) {
    return {
      skip: `project '${p.id}' has no key hash in 0.x (a TOML-configured project, or the seeded demo): create it with POST /v1/admin/projects`,
    };
  }
  const notes: string[] = [];
  const channels = [...new Set((p.channels ?? []).map(channelOf))];
  const unknown = channels.filter((c) => !isChannel(c));
  if (unknown.length) notes.push(`project '${p.id}': channels ${unknown.join(', ')} are not notifyd channels, dropped`);
  const settings: Record<string, unknown> = {};
  const raw = p.settings ?? {};
  if (raw.send_window !== undefined && raw.send_window !== null) {
    const parsed = parseSendWindow(raw.send_window, 'settings.send_window');
    if ('window' in parsed) settings.send_window = parsed.window;
    else notes.push(`project '${p.id}': ${parsed.error}; the window was not imported`);
  }
  if (raw.tracking !== undefined && raw.tracking !== null) settings.tracking = raw.tracking;
  const secondary =
    p.secondary_api_key_hash && SHA256_HEX.test(p.secondary_api_key_hash) ? p.secondary_api_key_hash : null;
  return {
    notes,
    row: {
      id: p.id,
      name: p.name,
      channels: channels.filter(isChannel),
      api_key_hash: p.api_key_hash,
      // The key itself is unknown here: the hint shows its 0.x prefix only.
      api_key_hint: `sk_${p.id}_… (notifyd 0.x key)`,
      secondary_api_key_hash: secondary,
      secondary_api_key_hint: secondary ? `sk_${p.id}_… (notifyd 0.x secondary key)` : null,
      rate_limit_per_min: Math.min(
        Math.max(p.rate_limit_per_min ?? 600, RATE_LIMIT_PER_MIN.min),
        RATE_LIMIT_PER_MIN.max,
      ),
      settings,
      from_email: p.from_email?.includes('@') ? p.from_email : null,
      from_name: p.from_name || null,
      created_at: p.created_at,
    },
  };
}

export interface SubscriberRow0x {
  project_id: string;
  id: string;
  email: string | null;
  phone: string | null;
  first_name: string | null;
  last_name: string | null;
  locale: string | null;
  data: Record<string, unknown> | null;
  timezone: string | null;
  created_at: Date;
}

export function convertSubscriber(s: SubscriberRow0x): Converted<Record<string, unknown>> {
  if (!SUBSCRIBER_ID_PATTERN.test(s.id))
    return {
      skip: `subscriber '${s.id.slice(0, 80)}' of '${s.project_id}': not a valid subscriber id (control characters or surrounding spaces)`,
    };
  const notes: string[] = [];
  const who = `subscriber '${s.id}' of '${s.project_id}'`;
  let phone = s.phone?.trim() || null;
  if (phone && !E164_PATTERN.test(phone)) {
    notes.push(`${who}: phone is not E.164, dropped`);
    phone = null;
  }
  let email = s.email?.trim() || null;
  if (email && !/^[^\s@]+@[^\s@]+$/.test(email)) {
    notes.push(`${who}: email is not an address, dropped`);
    email = null;
  }
  const locale = s.locale ? (canonicalLocale(s.locale) ?? null) : null;
  if (s.locale && !locale) notes.push(`${who}: locale '${s.locale}' is not a BCP 47 tag, dropped`);
  const timezone = s.timezone && isKnownTimeZone(s.timezone) ? s.timezone : null;
  if (s.timezone && !timezone) notes.push(`${who}: time zone '${s.timezone}' is unknown, dropped`);
  const data = s.data && typeof s.data === 'object' && !Array.isArray(s.data) ? s.data : {};
  return {
    notes,
    row: {
      project_id: s.project_id,
      id: s.id,
      email,
      phone,
      first_name: s.first_name,
      last_name: s.last_name,
      locale,
      timezone,
      data,
      created_at: s.created_at,
    },
  };
}

export interface PreferenceRow0x {
  project_id: string;
  subscriber_id: string;
  channel: string;
  workflow_id: string;
  enabled: boolean;
}

/**
 * 0.x kept one scope column for topics, workflow ids and template ids alike; notifyd tells them
 * apart. A scope that names one of the project's topics (of its templates or jobs) is a topic
 * scope, as 0.x decided it first; anything else a workflow-or-template scope, the same meaning.
 */
export function convertPreference(p: PreferenceRow0x, topics: ReadonlySet<string>): Converted<Record<string, unknown>> {
  const channel = p.channel === '*' ? '*' : channelOf(p.channel);
  if (channel !== '*' && !isChannel(channel))
    return { skip: `preference of '${p.subscriber_id}' in '${p.project_id}' on unknown channel '${p.channel}'` };
  const base = { project_id: p.project_id, subscriber_id: p.subscriber_id, channel, enabled: p.enabled };
  if (p.workflow_id === '*') return { notes: [], row: { ...base, scope_kind: 'all', scope: '*' } };
  const topic = normaliseTopic(p.workflow_id);
  if (topic && topics.has(`${p.project_id}\u0000${topic}`))
    return { notes: [], row: { ...base, scope_kind: 'topic', scope: topic } };
  return { notes: [], row: { ...base, scope_kind: 'workflow', scope: p.workflow_id } };
}

export interface TemplateRow0x {
  project_id: string;
  id: string;
  channel: string;
  subject: string | null;
  body: string;
  body_html: string | null;
  topic: string | null;
}

export function convertTemplate(t: TemplateRow0x): Converted<Record<string, unknown>> {
  const channel = channelOf(t.channel);
  if (!isChannel(channel))
    return { skip: `template '${t.id}' of '${t.project_id}' is for unknown channel '${t.channel}'` };
  const topic = t.topic ? normaliseTopic(t.topic) : undefined;
  const notes =
    t.topic && !topic
      ? [`template '${t.id}' of '${t.project_id}': topic '${t.topic}' is not a notifyd topic id, dropped`]
      : [];
  return {
    notes,
    row: {
      project_id: t.project_id,
      id: t.id,
      channel,
      subject: t.subject,
      body: t.body,
      body_html: t.body_html,
      topic: topic ?? null,
    },
  };
}

export interface PushTokenRow0x {
  id: string;
  project_id: string;
  subscriber_id: string;
  token: string;
  platform: string;
  device_name: string | null;
  endpoint: string | null;
  p256dh: string | null;
  auth: string | null;
  expiration_time: string | null;
  user_agent: string | null;
  created_at: Date;
  last_used_at: Date;
}

export function convertPushToken(t: PushTokenRow0x): Converted<Record<string, unknown>> {
  const platform = t.platform || 'fcm';
  const what = `push token ${t.id} of '${t.subscriber_id}' in '${t.project_id}'`;
  if (!['web', 'fcm', 'apns'].includes(platform)) return { skip: `${what}: unknown platform '${platform}'` };
  if (platform === 'web' && !(t.endpoint && t.p256dh && t.auth))
    return { skip: `${what}: a web push subscription without its endpoint and keys cannot be sent to` };
  const expiration = t.expiration_time && /^\d{1,15}$/.test(t.expiration_time) ? t.expiration_time : null;
  return {
    notes: [],
    row: {
      project_id: t.project_id,
      subscriber_id: t.subscriber_id,
      token: t.token,
      platform,
      device_name: t.device_name,
      endpoint: t.endpoint,
      p256dh: t.p256dh,
      auth: t.auth,
      expiration_time: expiration,
      user_agent: t.user_agent,
      created_at: t.created_at,
      last_used_at: t.last_used_at,
    },
  };
}

export interface WebhookRow0x {
  id: string;
  project_id: string;
  url: string;
  events: string[];
  secret: string;
  enabled: boolean;
}

/** An endpoint, its secret sealed by `seal` (this instance's webhook secret key). */
export function convertWebhook(
  w: WebhookRow0x,
  seal: (id: string, secret: string) => Buffer,
  urlRefusal: (url: string) => string | undefined,
): Converted<Record<string, unknown>> {
  const refusal = urlRefusal(w.url);
  if (refusal) return { skip: `webhook ${w.id} of '${w.project_id}': ${refusal}` };
  const events = (w.events ?? []).filter(isWebhookEventType);
  if (events.length === 0)
    return {
      skip: `webhook ${w.id} of '${w.project_id}': none of its events (${(w.events ?? []).join(', ')}) is a notifyd event`,
    };
  if (!w.secret) return { skip: `webhook ${w.id} of '${w.project_id}': no secret` };
  return {
    notes: [],
    row: {
      id: w.id,
      project_id: w.project_id,
      url: w.url,
      events,
      enabled: w.enabled,
      secret_enc: seal(w.id, w.secret).toString('hex'),
      secret_hint: `…${w.secret.slice(-4)}`,
    },
  };
}

export interface SuppressionRow0x {
  id: string;
  project_id: string;
  email: string;
  reason: string;
  detail: string | null;
  provider_event_id: string | null;
  created_at: Date;
  released_at: Date | null;
  released_by: string | null;
  scope: string | null;
}

export function convertSuppression(s: SuppressionRow0x): Converted<Record<string, unknown>> {
  const reason = ['bounce', 'complaint', 'manual', 'unsubscribe'].includes(s.reason) ? s.reason : 'manual';
  const scope = s.scope === 'marketing' ? 'marketing' : 'all';
  const notes = reason !== s.reason ? [`suppression ${s.id}: reason '${s.reason}' imported as 'manual'`] : [];
  return {
    notes,
    row: {
      id: s.id,
      project_id: s.project_id,
      address: s.email.trim().toLowerCase(),
      scope,
      reason,
      detail: s.detail,
      provider_event_id: s.provider_event_id,
      created_at: s.created_at,
      released_at: s.released_at,
      released_by: s.released_by,
    },
  };
}
