import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Notifyd, NotifydError, NotifydInbox } from '../src/index.js';
import { createProject, NOTIFYD_URL } from './harness.js';

/** The subscriber-token preference API: what an application drawing its own preference page calls. */
describe('NotifydInbox preferences', () => {
  it('reads the channels × topics, switches one off, and the project sees the same stored row', async () => {
    const notifyd = new Notifyd({ baseUrl: NOTIFYD_URL, apiKey: (await createProject()).key });
    await notifyd.subscribers.upsert({ id: 'jane', email: 'jane@example.com' });
    const { token } = await notifyd.subscribers.createToken({ subscriber_id: 'jane' });
    const inbox = new NotifydInbox({ baseUrl: NOTIFYD_URL, subscriberId: 'jane', token });

    const before = await inbox.preferences();
    assert.equal(before.subscriber_id, 'jane');
    assert.ok(before.channels.includes('email'));
    assert.deepEqual(before.preferences.find((p) => p.channel === 'email' && p.topic === 'marketing'), { channel: 'email', topic: 'marketing', enabled: true, switchable: true });
    assert.match(before.page_url, /\/p\/p1\./);

    const after = await inbox.setPreferences({ preferences: [{ channel: 'email', topic: 'marketing', enabled: false }] });
    assert.equal(after.preferences.find((p) => p.channel === 'email' && p.topic === 'marketing')?.enabled, false);
    const stored = await notifyd.preferences.get('jane');
    assert.ok(stored.preferences.some((p) => p.channel === 'email' && p.topic === 'marketing' && p.enabled === false));

    const refused = await inbox.setPreferences({ preferences: [{ channel: 'email', topic: 'nope', enabled: false }] }).catch((e: unknown) => e);
    assert.ok(refused instanceof NotifydError && refused.status === 422 && /preferences\[0\]\.topic/.test(refused.message));
    const other = new NotifydInbox({ baseUrl: NOTIFYD_URL, subscriberId: 'someone-else', token });
    const forbidden = await other.preferences().catch((e: unknown) => e);
    assert.ok(forbidden instanceof NotifydError && forbidden.status === 403);
  });
});
