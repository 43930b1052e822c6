import { ApiError } from '../errors/api-error.js';
import {
  DIGEST_FORMATS,
  DIGEST_WINDOW_ALIASES,
  DIGEST_WINDOWS,
  type DigestFormat,
  type DigestWindow,
} from '../../domain/digest-windows.js';

const WINDOW_CHOICES = Object.keys(DIGEST_WINDOWS).join(', ');

/** A window as the API, MCP and CLI accept it (default 24h); anything else → 400 naming the choices. */
export function parseDigestWindow(value: unknown): DigestWindow {
  if (value === undefined || value === null || value === '') return '24h';
  const text = String(value).trim().toLowerCase();
  if (text in DIGEST_WINDOWS) return text as DigestWindow;
  if (text in DIGEST_WINDOW_ALIASES) return DIGEST_WINDOW_ALIASES[text];
  throw ApiError.badRequest(
    'invalid_window',
    `window must be one of ${WINDOW_CHOICES} (got ${JSON.stringify(String(value).slice(0, 20))}).`,
  );
}

export function parseDigestFormat(value: unknown): DigestFormat {
  if (value === undefined || value === null || value === '') return 'json';
  const text = String(value).trim().toLowerCase();
  if ((DIGEST_FORMATS as readonly string[]).includes(text)) return text as DigestFormat;
  throw ApiError.badRequest(
    'invalid_format',
    `format must be json or markdown (got ${JSON.stringify(String(value).slice(0, 20))}).`,
  );
}
