import { applyDecorators, Header } from '@nestjs/common';

/**
 * A page for a person who followed a link (unsubscribe, preferences): HTML, never cached, never
 * indexed, plus the `extra` headers a page needs. The @Header decorators are applied last first,
 * as a stack of them would be, so the response sends its headers in the order it always did.
 */
export function HtmlPage(extra: Record<string, string> = {}) {
  const headers = Object.entries({
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Robots-Tag': 'noindex, nofollow',
    ...extra,
  });
  return applyDecorators(...headers.map(([name, value]) => Header(name, value)).reverse());
}
