import { acceptedBy } from '../../common/validation/validators.js';
import { DATA_TOO_LARGE_HELP, SUBSCRIBER_DATA_MAX_BYTES } from '../data-limit.js';

/** True when `value` as JSON fits SUBSCRIBER_DATA_MAX_BYTES (a value JSON cannot write is left to the other checks). */
export function fitsDataLimit(value: unknown): boolean {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return true;
  }
  return json === undefined || Buffer.byteLength(json, 'utf8') <= SUBSCRIBER_DATA_MAX_BYTES;
}

export const FitsDataLimit = acceptedBy('fitsDataLimit', fitsDataLimit, DATA_TOO_LARGE_HELP);
