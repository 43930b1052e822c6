import { ApiError } from '../common/errors/api-error.js';
import { createValidationPipe } from '../common/validation/validation.pipe.js';
import { UpsertSubscriberDto } from './dto/subscriber.dto.js';

/** One problem with one subscriber of a bulk call: the field at fault and the route's own sentence. */
export interface SubscriberItemProblem {
  /** The field at fault (`email`, `data`…), or null when the item as a whole is wrong. */
  field: string | null;
  message: string;
}

export type SubscriberItemCheck =
  { ok: true; dto: UpsertSubscriberDto } | { ok: false; problems: SubscriberItemProblem[] };

/** The pipe POST /v1/subscribers validates its body with: one instance, reused for every item. */
const pipe = createValidationPipe();

/**
 * Checks one subscriber exactly as `POST /v1/subscribers` checks its body (same DTO, same
 * pipe: unknown fields refused, locale canonicalised), but returns the problems instead of
 * throwing, so a bulk call can report them per item and still write the valid ones.
 */
export async function checkSubscriberItem(item: unknown): Promise<SubscriberItemCheck> {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    return {
      ok: false,
      problems: [
        {
          field: null,
          message: 'each subscriber must be a JSON object such as {"id": "user_123", "email": "jane@example.com"}',
        },
      ],
    };
  }
  try {
    return {
      ok: true,
      dto: (await pipe.transform(item, { type: 'body', metatype: UpsertSubscriberDto })) as UpsertSubscriberDto,
    };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const details = (err.extra.details as string[] | undefined) ?? [err.message];
    const keys = [...new Set(['id', ...Object.keys(item)])].sort((a, b) => b.length - a.length);
    return { ok: false, problems: details.map((line) => ({ field: fieldOf(line, keys), message: line })) };
  }
}

/**
 * The field a validation line is about. Lines start with the field's path (`email must…`,
 * `data.x …`, `foo is not a field…`); the item's own keys are matched longest first, so a key
 * holding spaces or dots is still found whole.
 */
function fieldOf(line: string, keys: string[]): string | null {
  for (const key of keys) {
    if (line.startsWith(key) && /^($|[\s.[])/.test(line.slice(key.length))) return key;
  }
  return null;
}
