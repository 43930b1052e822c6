/**
 * `settings.preference_topics`: the topics a project's subscribers see on their preference page
 * (and through the subscriber preference API), in order. Each entry is a topic id, or
 * `{"id": "security", "label": "Security alerts", "transactional": true}`: a transactional topic
 * is shown but cannot be switched off there. Checked at write time here (projects own their
 * settings) and read by governance's preference center.
 */
export interface PreferenceTopic {
  id: string;
  label: string | null;
  transactional: boolean;
}

/** At most this many topics: a page, not a catalogue. */
export const MAX_PREFERENCE_TOPICS = 50;
const MAX_LABEL = 100;
// governance/topics/topic.ts TOPIC_PATTERN (projects sit below governance; a spec keeps them equal).
export const PREFERENCE_TOPIC_PATTERN = /^[a-z0-9_.:-]{1,64}$/;

/** The catalog, or the field and the fix when it is not one. Absent or null: no topics. */
export function parsePreferenceTopics(value: unknown): { topics: PreferenceTopic[] } | { error: string } {
  if (value === undefined || value === null) return { topics: [] };
  const field = 'settings.preference_topics';
  if (!Array.isArray(value) || value.length > MAX_PREFERENCE_TOPICS)
    return { error: `${field} must be an array of at most ${MAX_PREFERENCE_TOPICS} topics.` };
  const topics: PreferenceTopic[] = [];
  for (const [i, entry] of value.entries()) {
    const e: Record<string, unknown> =
      typeof entry === 'string'
        ? { id: entry }
        : entry && typeof entry === 'object' && !Array.isArray(entry)
          ? (entry as Record<string, unknown>)
          : {};
    const at = `${field}[${i}]`;
    const id = typeof e.id === 'string' ? e.id.trim().toLowerCase() : undefined;
    if (!id || !PREFERENCE_TOPIC_PATTERN.test(id))
      return {
        error: `${at} must be a topic id, or {"id", "label"?, "transactional"?}, whose id is 1–64 characters of a-z, 0-9, -, _, . and :.`,
      };
    if (
      e.label !== undefined &&
      e.label !== null &&
      (typeof e.label !== 'string' || e.label.length > MAX_LABEL || /[\r\n]/.test(e.label))
    )
      return { error: `${at}.label must be one line of at most ${MAX_LABEL} characters.` };
    if (e.transactional !== undefined && typeof e.transactional !== 'boolean')
      return { error: `${at}.transactional must be true or false.` };
    const unknown = Object.keys(e).filter((k) => !['id', 'label', 'transactional'].includes(k));
    if (unknown.length)
      return { error: `${at} has unknown field ${unknown[0]}: only id, label and transactional are read.` };
    if (topics.some((t) => t.id === id)) return { error: `${at}: topic "${id}" is listed twice.` };
    topics.push({
      id,
      label: typeof e.label === 'string' && e.label.trim() ? e.label.trim() : null,
      transactional: e.transactional === true,
    });
  }
  return { topics };
}
