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

const HREF = /(<a\b[^>]*?\bhref\s*=\s*)(["'])(.*?)\2/gi;

/** Whether a link may be wrapped: http(s) only, no template placeholders, never our own unsubscribe or tracking links. */
export function wrappable(url: string, publicUrl: string): boolean {
  if (!/^https?:\/\//i.test(url) || url.includes('{{')) return false;
  const own = publicUrl.toLowerCase();
  const lower = url.toLowerCase();
  return !lower.startsWith(`${own}/u/`) && !lower.startsWith(`${own}/t/`);
}

const decodeEntities = (s: string) => s.replace(/&amp;/g, '&');

/** Wraps the email's links and adds the open pixel before </body> (or at the end). */
export function instrumentHtml(html: string, t: Instrumentation): string {
  let out = html;
  if (t.clicks) {
    out = out.replace(HREF, (whole, before: string, quote: string, url: string) => {
      const target = decodeEntities(url.trim());
      return wrappable(target, t.publicUrl) ? `${before}${quote}${t.link(target)}${quote}` : whole;
    });
  }
  if (t.opens) {
    const img = `<img src="${t.pixel()}" width="1" height="1" alt="" style="display:none">`;
    const at = out.search(/<\/body\s*>/i);
    out = at >= 0 ? `${out.slice(0, at)}${img}${out.slice(at)}` : `${out}${img}`;
  }
  return out;
}
