/** At most this many bytes (UTF-8) of a job's rendered parts are kept, all parts together. */
export const RENDERED_CONTENT_MAX_BYTES = 64 * 1024;
/** The subject's own share, taken first: a subject longer than this is not one. */
const SUBJECT_MAX_BYTES = 2 * 1024;

export interface KeptContent {
  subject: string | null;
  body: string | null;
  bodyHtml: string | null;
  truncated: boolean;
}

/**
 * The parts as kept: subject, then text body, then HTML, each cut at a character boundary so
 * that together they fit RENDERED_CONTENT_MAX_BYTES; `truncated` says whether anything was cut.
 */
export function boundContent(parts: {
  subject?: string | null;
  body?: string | null;
  bodyHtml?: string | null;
}): KeptContent {
  let budget = RENDERED_CONTENT_MAX_BYTES;
  let truncated = false;
  const take = (text: string | null | undefined, max: number): string | null => {
    if (text === null || text === undefined) return null;
    const [kept, cut] = cutToBytes(text, Math.min(max, budget));
    budget -= Buffer.byteLength(kept);
    truncated ||= cut;
    return kept;
  };
  const subject = take(parts.subject, SUBJECT_MAX_BYTES);
  const body = take(parts.body, budget);
  const bodyHtml = take(parts.bodyHtml, budget);
  return { subject, body, bodyHtml, truncated };
}

/** The longest prefix of `text` within `max` UTF-8 bytes, never splitting a character; and whether it was cut. */
export function cutToBytes(text: string, max: number): [string, boolean] {
  // Cheap exits: a UTF-8 character takes at most 3 bytes per UTF-16 unit.
  if (text.length * 3 <= max || Buffer.byteLength(text) <= max) return [text, false];
  const bytes = Buffer.from(text).subarray(0, Math.max(0, max));
  // A character split at the end decodes to U+FFFD: drop it.
  return [bytes.toString('utf8').replace(/\uFFFD$/, ''), true];
}
