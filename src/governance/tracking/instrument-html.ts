/** The transparent 1×1 GIF an open pixel answers with (43 bytes). */
export const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

export interface Instrumentation {
  opens: boolean;
  clicks: boolean;
  /** PUBLIC_URL without a trailing slash. */
  publicUrl: string;
  /** The tracked URL of a link, or of the pixel when url is undefined. */
  link(url: string): string;
  pixel(): string;
}

/*
 * The HTML is the tenant's (up to 1 MB) and this runs in the worker, so every scan is linear.
 * An opening <a> tag is matched on its own first (it cannot run past the next `<` or `>`, so
 * tags are disjoint and each character is scanned once), then its href is read inside it. The
 * one regex this replaces (`<a\b[^>]*?\bhref…(.*?)\2`) let each `<a` scan on to the next `>`
 * whatever lay between: 512 KB of `<a href=` cost a minute of CPU. Longer tags or values than
 * the bounds below are left unwrapped (no real link is 8 KB).
 */
const A_TAG = /<a\b[^<>]{0,8192}>/gi;
/** The first href of a tag and its quoted value (a tag has one). */
const HREF_ATTR = /\bhref\s{0,64}=\s{0,64}(?:"([^"\r\n]{0,8192})"|'([^'\r\n]{0,8192})')/i;
const BODY_END = /<\/body\s{0,64}>/i;

/** The patterns run on the tenant's HTML, for the spec that checks their quantifiers are bounded. */
export const HTML_PATTERNS: readonly RegExp[] = [A_TAG, HREF_ATTR, BODY_END];

/**
 * Whether a link may be wrapped: http(s) only, a URL that parses (a wrapped one that does not
 * could only answer 404), no template placeholders, never our own unsubscribe or tracking links.
 */
export function wrappable(url: string, publicUrl: string): boolean {
  if (!/^https?:\/\//i.test(url) || url.includes('{{') || !URL.canParse(url)) return false;
  const own = publicUrl.toLowerCase();
  const lower = url.toLowerCase();
  return !lower.startsWith(`${own}/u/`) && !lower.startsWith(`${own}/t/`);
}

const decodeEntities = (s: string) => s.replace(/&amp;/g, '&');

/** Wraps the email's links and adds the open pixel before </body> (or at the end). */
export function instrumentHtml(html: string, t: Instrumentation): string {
  let out = html;
  if (t.clicks) {
    out = out.replace(A_TAG, (tag) => wrapHref(tag, t));
  }
  if (t.opens) {
    const img = `<img src="${t.pixel()}" width="1" height="1" alt="" style="display:none">`;
    const at = out.search(BODY_END);
    out = at >= 0 ? `${out.slice(0, at)}${img}${out.slice(at)}` : `${out}${img}`;
  }
  return out;
}

/** The tag with its href replaced by the tracked link, or as it was when the link is not wrappable. */
function wrapHref(tag: string, t: Instrumentation): string {
  const href = HREF_ATTR.exec(tag);
  if (!href) return tag;
  const quote = href[1] === undefined ? "'" : '"';
  const target = decodeEntities((href[1] ?? href[2]).trim());
  if (!wrappable(target, t.publicUrl)) return tag;
  const name = href[0].slice(0, href[0].indexOf(quote));
  return `${tag.slice(0, href.index)}${name}${quote}${t.link(target)}${quote}${tag.slice(href.index + href[0].length)}`;
}
