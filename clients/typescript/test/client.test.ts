import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Notifyd, NotifydError } from '../src/index.js';
import { createProject, NOTIFYD_URL } from './harness.js';

describe('Notifyd against a real notifyd', () => {
  let notifyd: Notifyd;

  before(async () => {
    const project = await createProject();
    notifyd = new Notifyd({ baseUrl: NOTIFYD_URL, apiKey: project.key });
    await notifyd.subscribers.upsert({ id: 'jane', email: 'jane@example.com', phone: '+33600000901' });
  });

  it('sends, waits for the outcome and reads the job', async () => {
    const sent = await notifyd.send({ subscriber_id: 'jane', channels: ['email', 'sms'], subject: 'Hi {{name}}', body: 'Your order {{order}} shipped', vars: { name: 'Jane', order: 'A-1' } });
    assert.equal(sent.job_ids.length, 2);
    const jobs = await Promise.all(sent.job_ids.map((id) => notifyd.jobs.wait(id, { timeoutMs: 30_000 })));
    assert.deepEqual(jobs.map((j) => [j.channel, j.status]).sort(), [['email', 'sent'], ['sms', 'sent']]);
    const job = await notifyd.jobs.get(sent.job_ids[0]!);
    assert.equal(job.id, sent.job_ids[0]);
    assert.equal(job.subscriber_id, 'jane');
    assert.equal(job.status, 'sent');
  });

  it('is typed from the OpenAPI document (a misspelt field does not compile)', () => {
    // @ts-expect-error: SendRequestDto has no `chanels`
    const misspelt = () => notifyd.send({ subscriber_id: 'jane', chanels: ['email'], body: 'x' });
    assert.equal(typeof misspelt, 'function');
  });

  it('turns a 422 into NotifydError with the code, the field named and the request id', async () => {
    const error = await notifyd.send({ subscriber_id: 'jane', channels: ['pigeon'], body: 'x' }).then(
      () => assert.fail('a send on an unknown channel was accepted'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof NotifydError);
    assert.equal(error.status, 422);
    assert.equal(error.code, 'validation_failed');
    assert.match(error.message, /channels/);
    assert.match(error.requestId ?? '', /^[A-Za-z0-9._:-]+$/);
  });

  it('generates an idempotency key, so a send retried after a lost answer queues nothing twice', async () => {
    const bodies: string[] = [];
    let dropped = false;
    const flaky = new Notifyd({
      baseUrl: NOTIFYD_URL,
      apiKey: (notifyd.http as unknown as { options: { apiKey: string } }).options.apiKey,
      retryBaseMs: 10,
      // The first answer is lost after notifyd queued the job: the client sees a network error.
      fetch: async (input, init) => {
        bodies.push(String(init?.body));
        const response = await fetch(input, init);
        if (!dropped) {
          dropped = true;
          await response.text();
          throw new TypeError('fetch failed (connection reset)');
        }
        return response;
      },
    });
    const sent = await flaky.send({ subscriber_id: 'jane', channels: ['email'], subject: 's', body: 'once' });
    assert.equal(bodies.length, 2);
    const keys = bodies.map((b) => (JSON.parse(b) as { idempotency_key: string }).idempotency_key);
    assert.match(keys[0]!, /^ntfy_[0-9a-f-]{36}$/);
    assert.equal(keys[1], keys[0]);
    assert.equal(sent.deduplicated, true);
  });

  it('does not retry a call that is not idempotent after a network error', async () => {
    let calls = 0;
    const flaky = new Notifyd({
      baseUrl: NOTIFYD_URL,
      apiKey: 'sk_unused_00000000000000000000000000000000',
      retryBaseMs: 10,
      fetch: async () => {
        calls++;
        throw new TypeError('fetch failed');
      },
    });
    await assert.rejects(flaky.suppressions.create({ channel: 'email', address: 'x@example.com' }), (e: unknown) => e instanceof NotifydError && e.code === 'network_error');
    assert.equal(calls, 1);
  });

  it('covers subscribers, preferences, templates and suppressions', async () => {
    const subscriber = await notifyd.subscribers.get('jane');
    assert.equal(subscriber.email, 'jane@example.com');
    const listed = await notifyd.subscribers.list({ q: 'jane' });
    assert.deepEqual(listed.items.map((s) => s.id), ['jane']);

    await notifyd.preferences.set('jane', { preferences: [{ channel: 'sms', enabled: false }] });
    const prefs = await notifyd.preferences.get('jane');
    assert.ok(prefs.preferences.some((p) => p.channel === 'sms' && p.enabled === false));

    await notifyd.templates.upsert({ id: 'welcome', channel: 'email', subject: 'Welcome {{name}}', body: 'Hello {{name}}' });
    const preview = await notifyd.templates.preview('welcome', { vars: { name: 'Jane' } });
    assert.equal(preview.subject, 'Welcome Jane');

    const created = await notifyd.suppressions.create({ channel: 'email', address: 'blocked@example.com' });
    const id = created.suppression.id;
    assert.equal((await notifyd.suppressions.get(id)).suppression.address, 'blocked@example.com');
    await notifyd.suppressions.release(id);
    const missing = await notifyd.subscribers.get('nobody').catch((e: unknown) => e);
    assert.ok(missing instanceof NotifydError && missing.status === 404 && missing.code === 'not_found');
  });
});
