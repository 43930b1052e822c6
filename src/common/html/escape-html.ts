const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };

/**
 * Text made safe inside HTML, in element content and in quoted attribute values. The same
 * five characters and entities as liquidjs's `escape` filter, so that an inline `body_html`
 * and a stored template's escape a value identically.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}
