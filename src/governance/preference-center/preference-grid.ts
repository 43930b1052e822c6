import type { PreferenceTopic } from '../../projects/preference-topics.js';
import { optOutReason } from '../preferences/preference-rules.js';
import type { PreferenceRow } from '../preferences/preference.types.js';
import { isMarketingTopic, MARKETING_TOPIC } from '../../domain/marketing.js';

/** One toggle: a channel × topic, as the preference rule decides it today. */
export interface PreferenceCell {
  channel: string;
  topic: string;
  enabled: boolean;
  /** False for a transactional topic: shown, never switched from the page or the subscriber API. */
  switchable: boolean;
}

export interface PreferenceGrid {
  channels: string[];
  topics: PreferenceTopic[];
  cells: PreferenceCell[];
}

/** Channels a subscriber chooses on: chat channels reach a project's chats, not a person. */
const PERSONAL_CHANNELS = ['email', 'sms', 'whatsapp', 'push', 'in_app'];
const DEFAULT_CHANNELS = ['email', 'sms', 'push', 'in_app'];
const MAX_TOPICS = 60;

/**
 * The channels of the page: the project's declared channels (else email, SMS, push, in-app)
 * that reach a person, without those the subscriber has no address for (email, a phone number).
 */
export function gridChannels(
  projectChannels: readonly string[],
  subscriber: { email: string | null; phone: string | null },
): string[] {
  const declared = projectChannels.filter((c) => PERSONAL_CHANNELS.includes(c));
  return (declared.length ? declared : DEFAULT_CHANNELS).filter((c) =>
    c === 'email' ? Boolean(subscriber.email) : c === 'sms' || c === 'whatsapp' ? Boolean(subscriber.phone) : true,
  );
}

/**
 * The topics of the page: the project's catalog (settings.preference_topics) in its order, then
 * `marketing` (one switch for every message classed marketing), then any topic the subscriber
 * already has a stored choice for (from an unsubscribe link or the API), so it can be undone.
 */
export function gridTopics(catalog: readonly PreferenceTopic[], rows: readonly PreferenceRow[]): PreferenceTopic[] {
  const topics = [...catalog];
  const add = (id: string) => {
    if (!topics.some((t) => t.id === id)) topics.push({ id, label: null, transactional: false });
  };
  add(MARKETING_TOPIC);
  for (const r of rows) if (r.scopeKind === 'topic') add(r.scope);
  return topics.slice(0, MAX_TOPICS);
}

/** Every cell's state is what optOutReason() decides for a message of that channel and topic, so the page never disagrees with a send. */
export function buildGrid(
  channels: string[],
  topics: PreferenceTopic[],
  rows: readonly PreferenceRow[],
): PreferenceGrid {
  const cells: PreferenceCell[] = [];
  for (const topic of topics) {
    for (const channel of channels) {
      const enabled =
        optOutReason(rows, { channel, topic: topic.id, marketing: isMarketingTopic(topic.id), scopeIds: [] }) === null;
      cells.push({ channel, topic: topic.id, enabled, switchable: !topic.transactional });
    }
  }
  return { channels, topics, cells };
}

export interface WantedCell {
  channel: string;
  topic: string;
  enabled: boolean;
}

/**
 * The rows to write so that each wanted cell reads as wanted: one (channel, topic) row, the most
 * specific scope, for each cell that differs; none for a cell already so. An error (the field and
 * the fix) for a cell the grid does not have, or a transactional one asked to change.
 */
export function changesFor(
  grid: PreferenceGrid,
  wanted: readonly WantedCell[],
  field = 'preferences',
): { rows: WantedCell[] } | { error: string } {
  const rows: WantedCell[] = [];
  for (const [i, w] of wanted.entries()) {
    const cell = grid.cells.find((c) => c.channel === w.channel && c.topic === w.topic);
    if (!cell) {
      if (!grid.channels.includes(w.channel))
        return {
          error: `${field}[${i}].channel "${w.channel}" is not one of this subscriber's channels: ${grid.channels.join(', ')}.`,
        };
      return {
        error: `${field}[${i}].topic "${w.topic}" is not one of this project's topics: ${grid.topics.map((t) => t.id).join(', ')}.`,
      };
    }
    if (cell.enabled === w.enabled) continue;
    if (!cell.switchable)
      return {
        error: `${field}[${i}].topic "${w.topic}" is transactional: it is always sent and cannot be switched off.`,
      };
    if (!rows.some((r) => r.channel === w.channel && r.topic === w.topic)) rows.push(w);
  }
  return { rows };
}

/** A short fingerprint of the grid's cells: a page's form names it, so a form for another grid is refused rather than misread. */
export function gridVersion(grid: PreferenceGrid): string {
  let h = 2166136261;
  for (const c of `${grid.channels.join(',')}|${grid.topics.map((t) => `${t.id}:${t.transactional ? 1 : 0}`).join(',')}`)
    h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h.toString(36);
}
