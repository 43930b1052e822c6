import { decodeCursorTuple, encodeCursorTuple, invalidCursor } from '../common/pagination/cursor.js';
import { CHANNELS } from '../domain/channels.js';
import { TEMPLATE_ID_PATTERN } from './template-id.js';
import type { TemplateRow } from './template.types.js';

/** Where a page of template variants ends: the listing's sort key (id, channel, locale). */
export interface TemplateKey {
  id: string;
  channel: string;
  /** '' is the channel's default variant. */
  locale: string;
}

export function encodeTemplateCursor(row: TemplateRow): string {
  return encodeCursorTuple([row.id, row.channel, row.locale]);
}

/** 400 naming `cursor` unless it is one encodeTemplateCursor made (a decodable key of a real shape). */
export function decodeTemplateCursor(cursor: string | undefined): TemplateKey | undefined {
  const parts = decodeCursorTuple(cursor, 3);
  if (!parts) return undefined;
  const [id, channel, locale] = parts;
  if (
    !TEMPLATE_ID_PATTERN.test(id) ||
    !(CHANNELS as readonly string[]).includes(channel) ||
    !/^[A-Za-z0-9-]{0,64}$/.test(locale)
  )
    throw invalidCursor();
  return { id, channel, locale };
}
