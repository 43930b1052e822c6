import type { JobRow } from '../../src/domain/job.types.js';

const at = (iso: string) => new Date(iso);

/**
 * A job row for unit specs: a pending email of project shop to a@b.test, queued by a project
 * key at 2026-11-30T05:59Z and due then, never attempted. `patch` overrides any field.
 */
export function jobRow(patch: Partial<JobRow> = {}): JobRow {
  return {
    id: 'j1',
    projectId: 'shop',
    channel: 'email',
    subscriberId: null,
    recipient: 'a@b.test',
    templateId: null,
    topic: null,
    payload: {},
    status: 'pending',
    priority: 50,
    scheduledAt: at('2026-11-30T05:59:00.000Z'),
    runAt: at('2026-11-30T05:59:00.000Z'),
    nextRetryAt: null,
    attempts: 0,
    maxAttempts: 5,
    claimedAt: null,
    idempotencyKey: null,
    provider: null,
    providerMessageId: null,
    error: null,
    createdAt: at('2026-11-30T05:59:00.000Z'),
    sentAt: null,
    deliveredAt: null,
    bouncedAt: null,
    openedAt: null,
    clickedAt: null,
    complainedAt: null,
    createdBy: 'sk_shop_…1f2e',
    ...patch,
  };
}
