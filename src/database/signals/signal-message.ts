/** The one NOTIFY channel every notifyd process listens on; the payload says topic and key. */
export const SIGNAL_CHANNEL = 'notifyd_signals';

/** Topics are short dotted names (`jobs.due`, `job.end`); they cannot contain the separator. */
const TOPIC = /^[a-z][a-z0-9_.-]{0,62}$/;
/** NOTIFY payloads must stay under 8 000 bytes; keys are ids, far shorter than this. */
const MAX_KEY_BYTES = 1_000;

export function assertTopic(topic: string): void {
  if (!TOPIC.test(topic))
    throw new Error(`signal topic '${topic}' must match ${TOPIC} (lowercase letters, digits, . _ -)`);
}

/** `topic:key`. The key may contain anything but NUL (PostgreSQL text cannot hold it). */
export function encodeSignal(topic: string, key: string): string {
  assertTopic(topic);
  if (key.includes('\0') || Buffer.byteLength(key) > MAX_KEY_BYTES) {
    throw new Error(`signal key for '${topic}' must be at most ${MAX_KEY_BYTES} bytes without NUL characters`);
  }
  return `${topic}:${key}`;
}

/** The reverse of encodeSignal; undefined for a payload some other program sent. */
export function decodeSignal(payload: string): { topic: string; key: string } | undefined {
  const at = payload.indexOf(':');
  if (at < 1) return undefined;
  const topic = payload.slice(0, at);
  return TOPIC.test(topic) ? { topic, key: payload.slice(at + 1) } : undefined;
}
