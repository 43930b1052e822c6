import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Notifyd, NotifydInbox, type InboxEvent } from '../src/index.js';
import { createProject, NOTIFYD_URL, until } from './harness.js';

/**
 * The stream drops (the connection is cut after the first message, as a proxy or a network
 * does) while a message is sent: the inbox reconnects by itself with Last-Event-ID and gets it.
 */
describe('NotifydInbox reconnects', () => {
  it('resumes after a dropped connection from the last event id, missing nothing', async () => {
    const notifyd = new Notifyd({ baseUrl: NOTIFYD_URL, apiKey: (await createProject()).key });
    await notifyd.subscribers.upsert({ id: 'jane' });
    const { token } = await notifyd.subscribers.createToken({ subscriber_id: 'jane' });

    const requests: { lastEventId: string | null }[] = [];
    const cuts: (() => void)[] = [];
    // Reconnections wait until the missed message exists: it can only arrive by replay.
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const inbox = new NotifydInbox({
      baseUrl: NOTIFYD_URL,
      subscriberId: 'jane',
      token,
      // A real fetch whose body can be cut from outside: the network edge, nothing else faked.
      fetch: async (input, init) => {
        requests.push({ lastEventId: new Headers(init?.headers).get('last-event-id') });
        if (requests.length > 1) await gate;
        const response = await fetch(input, init);
        if (!response.body) return response;
        const reader = response.body.getReader();
        let stream!: ReadableStreamDefaultController<Uint8Array>;
        // The cut is immediate, like a reset connection: the reader's pending read fails at once.
        cuts.push(() => {
          stream.error(new TypeError('terminated: connection reset'));
          void reader.cancel().catch(() => {});
        });
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            stream = controller;
          },
          async pull(controller) {
            const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
            try {
              if (done) controller.close();
              else controller.enqueue(value);
            } catch {
              // errored by the cut meanwhile
            }
          },
        });
        return new Response(body, { status: response.status, headers: response.headers });
      },
    });
    const events: InboxEvent[] = [];
    let opened = 0;
    const subscription = inbox.subscribe((e) => events.push(e), { onOpen: () => opened++ });
    try {
      await until(async () => (opened === 1 ? true : undefined));
      await notifyd.send({ subscriber_id: 'jane', channels: ['in_app'], body: 'first' });
      await until(async () => (events.some((e) => e.type === 'message.created') ? true : undefined));
      const idBeforeDrop = subscription.lastEventId;
      assert.match(idBeforeDrop ?? '', /^\d+$/);

      cuts[0]!();
      const missed = await notifyd.send({ subscriber_id: 'jane', channels: ['in_app'], body: 'second' });
      await notifyd.jobs.wait(missed.job_ids[0]!);
      openGate();
      await until(async () => (events.some((e) => e.type === 'message.created' && e.data.message.body === 'second') ? true : undefined), 30_000);

      assert.equal(requests[0]!.lastEventId, null);
      assert.ok(requests.length >= 2);
      // The reconnect asked for what came after the last event received before the drop (or later ones).
      assert.ok(BigInt(requests[1]!.lastEventId ?? '0') >= BigInt(idBeforeDrop!));
      const bodies = events.filter((e) => e.type === 'message.created').map((e) => e.data.message.body);
      assert.deepEqual(bodies, ['first', 'second']);
    } finally {
      subscription.close();
      await subscription.done;
    }
  });
});
