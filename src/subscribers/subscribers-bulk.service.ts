import { Injectable } from '@nestjs/common';
import type { BulkSubscriberErrorDto, BulkUpsertSubscribersResponseDto } from './dto/bulk-subscribers.dto.js';
import { type SubscriberUpsert, SubscribersRepository } from './subscribers.repository.js';
import { toSubscriberUpsert } from './subscribers.service.js';
import { MERGED_DATA_TOO_LARGE } from './data-limit.js';

/** Validating is synchronous work: let other requests in between slices of a large call. */
const YIELD_EVERY = 500;

/**
 * Bulk upsert: each item is checked as POST /v1/subscribers checks its body; the valid ones
 * are written in one statement, the others reported by index. Repeated ids are folded in
 * order, which is what sending them one by one would have stored.
 */
/**
 * The per-item check (class-validator and the subscriber DTO), imported at the first bulk call:
 * a worker process has this service in its graph (imports run on it) but never validates.
 */
let itemCheck: Promise<typeof import('./subscriber-item.js')> | undefined;
const subscriberItems = () => (itemCheck ??= import('./subscriber-item.js'));

@Injectable()
export class SubscribersBulkService {
  constructor(private readonly repository: SubscribersRepository) {}

  async upsert(projectId: string, items: readonly unknown[]): Promise<BulkUpsertSubscribersResponseDto> {
    const errors: BulkSubscriberErrorDto[] = [];
    const byId = new Map<string, SubscriberUpsert>();
    /** Each id's last position: a refusal of the folded upsert is reported there. */
    const lastIndex = new Map<string, number>();
    let failed = 0;
    let duplicates = 0;
    for (let index = 0; index < items.length; index++) {
      if (index > 0 && index % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
      const check = await (await subscriberItems()).checkSubscriberItem(items[index]);
      if (!check.ok) {
        failed++;
        const id = idOf(items[index]);
        for (const problem of check.problems) errors.push({ index, id, ...problem });
        continue;
      }
      const next = toSubscriberUpsert(check.dto);
      const earlier = byId.get(next.id);
      if (earlier) duplicates++;
      byId.set(next.id, earlier ? fold(earlier, next) : next);
      lastIndex.set(next.id, index);
    }
    const { created, updated, tooLarge } = byId.size
      ? await this.repository.bulkUpsert(projectId, [...byId.values()])
      : { created: 0, updated: 0, tooLarge: [] };
    for (const id of tooLarge) {
      failed++;
      errors.push({ index: lastIndex.get(id)!, id, field: 'data', message: MERGED_DATA_TOO_LARGE });
    }
    if (tooLarge.length) errors.sort((a, b) => a.index - b.index);
    return { created, updated, duplicates, failed, errors };
  }
}

/** Two upserts of one id as one: the later one's fields win, data merged shallowly (as the SQL merges it). */
function fold(earlier: SubscriberUpsert, later: SubscriberUpsert): SubscriberUpsert {
  return { id: later.id, fields: { ...earlier.fields, ...later.fields }, data: { ...earlier.data, ...later.data } };
}

/** A refused item's id, to name it in the error (it may be the id that is wrong). */
function idOf(item: unknown): string | null {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id.slice(0, 255) : null;
}
