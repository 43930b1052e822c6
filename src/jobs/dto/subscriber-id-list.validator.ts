import { validatedBy } from '../../common/validation/validators.js';
import { SUBSCRIBER_ID_PATTERN } from '../../subscribers/dto/subscriber.dto.js';

/**
 * Why a list of subscriber ids is invalid (the first bad element), or undefined when every
 * element is an id. One pass with RegExp.test: `@IsString({ each: true })` with
 * `@Matches(…, { each: true })` ran class-validator's per-element machinery and a String.match
 * (an array) per id, 1.8 MB of garbage for a 5 000-id /v1/batch call. The array checks
 * themselves (array, size) stay with their own decorators.
 */
export function subscriberIdListProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return undefined; // @IsArray reports it
  for (let i = 0; i < value.length; i++) {
    const id: unknown = value[i];
    if (typeof id !== 'string') return `[${i}] must be a string (a subscriber id)`;
    if (!SUBSCRIBER_ID_PATTERN.test(id))
      return `[${i}] must be 1–255 printable characters without leading or trailing spaces`;
  }
  return undefined;
}

export const IsSubscriberIdList = validatedBy('isSubscriberIdList', subscriberIdListProblem);
