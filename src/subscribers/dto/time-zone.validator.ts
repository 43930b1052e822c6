import { isTimeZone } from 'class-validator';
import { acceptedBy } from '../../common/validation/validators.js';

/** Zone names remembered: a few hundred real ones and their spellings; bounded all the same. */
const MAX_REMEMBERED = 2048;
const accepted = new Set<string>();

/**
 * class-validator's isTimeZone (the platform's Intl accepts the zone), remembering the names it
 * accepted. Each check builds an Intl.DateTimeFormat, 0.25–0.9 ms on the shared test machine:
 * most of the cost of checking a subscriber, so most of a 10 000-subscriber bulk call. Only
 * accepted names are kept, so junk cannot push the real zones out.
 */
export function isKnownTimeZone(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (accepted.has(value)) return true;
  if (!isTimeZone(value)) return false;
  if (accepted.size < MAX_REMEMBERED) accepted.add(value);
  return true;
}

/** @IsTimeZone with isKnownTimeZone: the same rule, remembered. */
export const IsKnownTimeZone = acceptedBy('isTimeZone', isKnownTimeZone, 'must be a valid IANA time-zone');
