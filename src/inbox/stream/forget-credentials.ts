import type { IncomingMessage } from 'node:http';
import { KEY_HEADERS } from '../../projects/auth/api-keys.js';

/**
 * Drops the presented key or token (the headers presentedKey reads) from a request that stays
 * open for hours (an event stream), once it is authenticated and what the stream watches is
 * derived (a key's hash, a token's generation). The request lives as long as its socket; without this, the secret would too, in
 * both the parsed headers and Node's raw list of name/value pairs.
 */
export function forgetCredentials(request: Pick<IncomingMessage, 'headers' | 'rawHeaders'>): void {
  for (const name of KEY_HEADERS) delete request.headers[name];
  const raw = request.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    if (KEY_HEADERS.includes(raw[i].toLowerCase())) raw.splice(i, 2);
  }
}
