import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Notifyd, NotifydError, retryAfterMs } from '../src/index.js';
import { createProject, NOTIFYD_URL } from './harness.js';

describe('retries', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    assert.equal(retryAfterMs('7'), 7000);
    assert.equal(retryAfterMs(new Date(60_000).toUTCString(), 0), 60_000);
    assert.equal(retryAfterMs('soon'), null);
    assert.equal(retryAfterMs(null), null);
  });

  it('retries a 429 after the Retry-After notifyd gives, then succeeds', async () => {
    const project = await createProject({ rateLimitPerMin: 2 });
    const seen: { status: number; retryAfter: string | null; at: number }[] = [];
    const notifyd = new Notifyd({
      baseUrl: NOTIFYD_URL,
      apiKey: project.key,
      maxRetryDelayMs: 61_000,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        seen.push({ status: response.status, retryAfter: response.headers.get('retry-after'), at: Date.now() });
        return response;
      },
    });
    // Spend the minute's budget (2), then the third call meets a 429 and waits for the next window.
    await notifyd.subscribers.upsert({ id: 'a' });
    await notifyd.subscribers.upsert({ id: 'b' });
    const third = await notifyd.subscribers.get('a');
    assert.equal(third.id, 'a');
    const refused = seen.findIndex((s) => s.status === 429);
    assert.ok(refused >= 2, `expected a 429 after the budget was spent, saw ${JSON.stringify(seen)}`);
    const retryAfter = Number(seen[refused]!.retryAfter);
    assert.ok(retryAfter >= 1 && retryAfter <= 60);
    const next = seen[refused + 1]!;
    assert.equal(next.status, 200);
    // The retry came no sooner than Retry-After said (less the response's own rounding, 1 s).
    assert.ok(next.at - seen[refused]!.at >= (retryAfter - 1) * 1000);
  });

  it('gives the 429 to the caller when Retry-After is longer than it may wait', async () => {
    const project = await createProject({ rateLimitPerMin: 1 });
    const notifyd = new Notifyd({ baseUrl: NOTIFYD_URL, apiKey: project.key, maxRetryDelayMs: 0 });
    await notifyd.subscribers.upsert({ id: 'a' });
    const error = await notifyd.subscribers.get('a').catch((e: unknown) => e);
    assert.ok(error instanceof NotifydError);
    assert.equal(error.status, 429);
    assert.equal(error.code, 'rate_limited');
    assert.equal(typeof error.details.retry_after, 'number');
  });
});
