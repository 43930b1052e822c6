import { WebhookDeliveryWorker } from '../src/webhooks/delivery/webhook-delivery.worker.js';
import { WEBHOOK_PAUSE_AFTER_FAILURES } from '../src/webhooks/delivery/webhook-pause.js';
import { WebhookEvents } from '../src/webhooks/webhook-events.service.js';
import { WebhooksRepository } from '../src/webhooks/webhooks.repository.js';
import { WebhookReceiver } from './fakes/webhook-receiver.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The circuit breaker of a webhook endpoint (webhook_endpoints.consecutive_failures and
 * paused_until): a receiver that keeps failing is paused and probed, not sent every new event.
 * Time is moved in the database: "the pause ends" sets paused_until and every queued run_at
 * into the past, as if the time had passed.
 */
describe('outbound webhooks: a failing endpoint is paused and probed', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let base: string;
  let sender: WebhookDeliveryWorker;
  let events: WebhookEvents;
  let project: { id: string; key: string };

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    base = await receiver.start();
    t = await startTestApp({
      // Loopback allowed explicitly: the receiver is this test's own server.
      // One request at a time: which delivery the fifth failure stops is then certain.
      env: { OUTBOUND_ALLOW_LOOPBACK: 'true', WEBHOOK_TIMEOUT_MS: '3000', WEBHOOK_CONCURRENCY: '1' },
    });
    sender = t.notifyd.app.get(WebhookDeliveryWorker);
    events = t.notifyd.app.get(WebhookEvents);
    project = await t.createProject();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });
  beforeEach(async () => {
    receiver.reset();
    await t.db.sql(`DELETE FROM webhook_endpoints`);
  });

  const create = async (path = '/hook') => {
    const res = await t.http
      .post('/v1/webhooks')
      .set('X-Api-Key', project.key)
      .send({ url: `${base}${path}`, events: ['subscriber.preference_changed'] });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };
  const emit = async (n: number) => {
    for (let i = 0; i < n; i++)
      await events.emit(project.id, 'subscriber.preference_changed', { subscriber_id: `u${i}`, preferences: [] });
  };
  const view = async (id: string) =>
    (await t.http.get(`/v1/webhooks/${id}`).set('X-Api-Key', project.key)).body.webhook as {
      consecutive_failures: number;
      paused_until: string | null;
    };
  const rows = (id: string) =>
    t.db.sql(`SELECT status, attempts, run_at FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at`, [
      id,
    ]);
  const pauseEnds = async () => {
    await t.db.sql(
      `UPDATE webhook_endpoints SET paused_until = now() - interval '1 second' WHERE paused_until IS NOT NULL`,
    );
    await t.db.sql(
      `UPDATE webhook_deliveries SET run_at = now() - interval '1 second' WHERE status IN ('pending','retry')`,
    );
  };

  it('pauses after 5 failures in a row, holds new events back without burning attempts, probes once, and delivers everything on recovery', async () => {
    const hook = await create();
    let up = false;
    receiver.script = () => (up ? { status: 200 } : { status: 500, body: 'down' });

    // Five events, five failed first attempts: the endpoint is paused.
    await emit(WEBHOOK_PAUSE_AFTER_FAILURES);
    expect(await sender.drainOnce()).toMatchObject({ claimed: 5, retried: 5 });
    expect(receiver.received).toHaveLength(5);
    const paused = await view(hook.id);
    expect(paused.consecutive_failures).toBe(5);
    const pauseMs = new Date(paused.paused_until!).getTime() - Date.now();
    expect(pauseMs).toBeGreaterThan(20_000);
    expect(pauseMs).toBeLessThanOrEqual(30_000);

    // While paused: a new event gets no request, nor do the retries falling due.
    await emit(3);
    await t.db.sql(`UPDATE webhook_deliveries SET run_at = now() WHERE status = 'retry'`);
    expect(await sender.drainOnce()).toMatchObject({ claimed: 0, deferred: 8 });
    expect(receiver.received).toHaveLength(5);
    const held = await rows(hook.id);
    expect(held.map((r) => [r.status, r.attempts])).toEqual([
      ...Array(5).fill(['retry', 1]),
      ...Array(3).fill(['pending', 0]),
    ]);
    // Held until the pause ends, not due on every poll.
    for (const r of held) expect(new Date(r.run_at).getTime()).toBe(new Date(paused.paused_until!).getTime());
    expect(await sender.drainOnce()).toMatchObject({ claimed: 0, deferred: 0 });

    // The pause ends: one probe, which fails: a longer pause, the others still held.
    await pauseEnds();
    expect(await sender.drainOnce()).toMatchObject({ claimed: 1, retried: 1, deferred: 7 });
    expect(receiver.received).toHaveLength(6);
    const longer = await view(hook.id);
    expect(longer.consecutive_failures).toBe(6);
    expect(new Date(longer.paused_until!).getTime() - Date.now()).toBeGreaterThan(45_000);
    expect((await rows(hook.id)).filter((r) => r.status !== 'retry' && r.status !== 'pending')).toEqual([]);

    // The receiver is back: the probe succeeds, the pause is cleared, everything queued arrives.
    up = true;
    await pauseEnds();
    expect(await sender.drainOnce()).toMatchObject({ claimed: 8, delivered: 8, failed: 0 });
    expect(receiver.received).toHaveLength(14);
    expect(await view(hook.id)).toMatchObject({ consecutive_failures: 0, paused_until: null });
    const done = await rows(hook.id);
    expect(done.map((r) => r.status)).toEqual(Array(8).fill('delivered'));
    // Every attempt counted is a request the receiver saw: the pause burned none.
    expect(done.reduce((n, r) => n + r.attempts, 0)).toBe(14);
    expect(new Set(receiver.received.slice(6).map((r) => r.headers['webhook-id'])).size).toBe(8);
  });

  it('a batch already out when the fifth failure lands sends that endpoint nothing more: the rest is held, attempts uncounted, and goes on recovery', async () => {
    const hook = await create();
    const healthy = await create('/healthy');
    let up = false;
    receiver.script = (request) => (up || request.path === '/healthy' ? { status: 200 } : { status: 503 });

    // One batch of 12 events for each endpoint; the failing one gets 5 requests, not 12.
    await emit(12);
    expect(await sender.drainOnce()).toMatchObject({ claimed: 24, delivered: 12, retried: 5, held: 7 });
    expect(receiver.received.filter((r) => r.path === '/hook')).toHaveLength(WEBHOOK_PAUSE_AFTER_FAILURES);
    expect(receiver.received.filter((r) => r.path === '/healthy')).toHaveLength(12);
    const paused = await view(hook.id);
    expect(paused).toMatchObject({ consecutive_failures: 5 });
    expect(await view(healthy.id)).toMatchObject({ consecutive_failures: 0, paused_until: null });
    // The held ones are as before their claim: pending, no attempt, no log entry, due when the pause ends.
    const held = await t.db.sql(
      `SELECT status, attempts, run_at, jsonb_array_length(attempt_log) AS logged FROM webhook_deliveries
        WHERE endpoint_id = $1 AND attempts = 0 ORDER BY created_at`,
      [hook.id],
    );
    expect(held).toHaveLength(7);
    for (const r of held) {
      expect(r).toMatchObject({ status: 'pending', logged: 0 });
      expect(Math.abs(new Date(r.run_at).getTime() - new Date(paused.paused_until!).getTime())).toBeLessThan(5_000);
    }
    expect(await sender.drainOnce()).toMatchObject({ claimed: 0, held: 0 });

    // Recovery: the probe succeeds and all twelve are delivered, each attempt a request seen.
    up = true;
    await pauseEnds();
    expect(await sender.drainOnce()).toMatchObject({ claimed: 12, delivered: 12, held: 0 });
    const done = await rows(hook.id);
    expect(done.map((r) => r.status)).toEqual(Array(12).fill('delivered'));
    expect(done.reduce((n, r) => n + r.attempts, 0)).toBe(receiver.received.filter((r) => r.path === '/hook').length);
  });

  it('recovery releases what the pause held, not a retry the receiver put off with Retry-After', async () => {
    const hook = await create();
    let up = false;
    receiver.script = () => (up ? { status: 200 } : { status: 503, headers: { 'retry-after': '50' } });

    // Five failures asking for 50 s: paused (30 s), five retries due in 50 s, by the receiver's word.
    await emit(WEBHOOK_PAUSE_AFTER_FAILURES);
    expect(await sender.drainOnce()).toMatchObject({ retried: 5 });
    // A new event while paused: held by the pause.
    await emit(1);
    expect(await sender.drainOnce()).toMatchObject({ claimed: 0, deferred: 1 });
    const flags = await t.db.sql(
      `SELECT held_by_pause AS held, count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 GROUP BY 1 ORDER BY 1`,
      [hook.id],
    );
    expect(flags).toEqual([
      { held: false, n: 5 },
      { held: true, n: 1 },
    ]);

    // The pause ends (the held event is due; the Retry-After ones are not): the probe succeeds.
    await t.db.sql(`UPDATE webhook_endpoints SET paused_until = now() - interval '1 second' WHERE id = $1`, [hook.id]);
    await t.db.sql(`UPDATE webhook_deliveries SET run_at = now() - interval '1 second' WHERE held_by_pause`);
    up = true;
    expect(await sender.drainOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(await view(hook.id)).toMatchObject({ consecutive_failures: 0, paused_until: null });
    // The five keep the time the receiver asked for.
    const kept = await t.db.sql(
      `SELECT run_at > now() + interval '30 seconds' AS later FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'retry'`,
      [hook.id],
    );
    expect(kept.map((r) => r.later)).toEqual(Array(5).fill(true));
  });

  it('a success before the fifth failure resets the count: no pause', async () => {
    const hook = await create();
    receiver.script = (_, i) => (i === 3 ? { status: 200 } : { status: 500 });
    await emit(4);
    await sender.drainOnce(); // 3 failures and a success in one batch: the receiver answers
    expect(await view(hook.id)).toMatchObject({ consecutive_failures: 0, paused_until: null });
    await emit(4);
    await sender.drainOnce();
    expect(await view(hook.id)).toMatchObject({ consecutive_failures: 4, paused_until: null });
    await emit(1);
    expect(await sender.drainOnce()).toMatchObject({ claimed: 1, deferred: 0 });
    expect(receiver.received).toHaveLength(9);
    expect((await view(hook.id)).paused_until).not.toBeNull();
  });

  it('a new URL (or re-enabling) starts the endpoint afresh', async () => {
    const hook = await create();
    receiver.script = () => ({ status: 500 });
    await emit(WEBHOOK_PAUSE_AFTER_FAILURES);
    await sender.drainOnce();
    expect((await view(hook.id)).paused_until).not.toBeNull();
    const moved = await t.http
      .patch(`/v1/webhooks/${hook.id}`)
      .set('X-Api-Key', project.key)
      .send({ url: `${base}/moved` });
    expect(moved.body.webhook).toMatchObject({ consecutive_failures: 0, paused_until: null });
  });

  it('two claims at the end of a pause (two replicas) send one probe between them', async () => {
    const hook = await create();
    receiver.script = () => ({ status: 500 });
    await emit(WEBHOOK_PAUSE_AFTER_FAILURES);
    await sender.drainOnce();
    await emit(20);
    await pauseEnds();
    const repository = t.notifyd.app.get(WebhooksRepository);
    const [a, b] = await Promise.all([repository.claim(15, 66), repository.claim(15, 66)]);
    const claimed = [...a, ...b].filter((d) => !d.deferred);
    expect(claimed).toHaveLength(1);
    expect([...a, ...b]).toHaveLength(25);
    const [probe] = await t.db.sql(`SELECT paused_until FROM webhook_endpoints WHERE id = $1`, [hook.id]);
    expect(new Date(probe.paused_until).getTime() - Date.now()).toBeGreaterThan(50_000);
  });

  it('the day-long rule still disables an endpoint whose probe delivery runs out of attempts', async () => {
    const hook = await create();
    receiver.script = () => ({ status: 500 });
    await emit(WEBHOOK_PAUSE_AFTER_FAILURES);
    await sender.drainOnce();
    await emit(2);
    await sender.drainOnce();
    await pauseEnds();
    // The oldest delivery is the probe; make it its last attempt.
    await t.db.sql(
      `UPDATE webhook_deliveries SET attempts = max_attempts - 1
        WHERE id = (SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at LIMIT 1)`,
      [hook.id],
    );
    expect(await sender.drainOnce()).toMatchObject({ claimed: 1, failed: 1, disabledEndpoints: [hook.id] });
    const statuses = (await rows(hook.id)).map((r) => r.status);
    expect(statuses).toEqual(['failed', ...Array(6).fill('cancelled')]);
    expect(await view(hook.id)).toMatchObject({ paused_until: null });
  });
});
