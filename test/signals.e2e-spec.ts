import pg from 'pg';
import { SignalListener } from '../src/database/signals/signal-listener.js';
import { type SignalSubscriber, SignalsService } from '../src/database/signals/signals.service.js';
import { TcpProxy } from './fakes/tcp-proxy.js';
import { eventually, SignalTap } from './helpers/signal-tap.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/** Records what a subscriber is told. */
class Recorder implements SignalSubscriber {
  keys: string[] = [];
  resyncs = 0;
  received(key: string): void {
    this.keys.push(key);
  }
  resync(): void {
    this.resyncs++;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** SignalsService on real PostgreSQL: two app instances on one database act as two replicas. */
describe('signals: after-commit NOTIFY, listener, resync', () => {
  let a: TestApp;
  let b: TestApp;
  let signalsA: SignalsService;
  let signalsB: SignalsService;
  let tap: SignalTap;

  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({ database: a.db });
    signalsA = a.notifyd.app.get(SignalsService);
    signalsB = b.notifyd.app.get(SignalsService);
    tap = await SignalTap.open(a.db.url);
    await eventually(async () => (signalsA.listening && signalsB.listening) || undefined);
  });
  afterAll(async () => {
    await tap.close();
    await b.close();
    await a.close();
  });
  beforeEach(() => tap.clear());

  it('a signal sent on one replica reaches the subscribers of every replica; repeats in one flush go out once', async () => {
    const onA = new Recorder();
    const onB = new Recorder();
    const offA = signalsA.subscribe('test.fanout', onA);
    const offB = signalsB.subscribe('test.fanout', onB);
    try {
      for (let i = 0; i < 100; i++) signalsA.send('test.fanout', 'same');
      signalsA.send('test.fanout', 'other');
      await eventually(
        async () =>
          (onB.keys.includes('same') && onB.keys.includes('other') && onA.keys.includes('other')) || undefined,
      );
      await signalsA.flush();
      await sleep(100);
      expect(tap.matching('test.fanout:same')).toEqual(['test.fanout:same']);
      expect(onB.keys.filter((k) => k === 'same')).toHaveLength(1);
    } finally {
      offA();
      offB();
    }
  });

  it('signals from many concurrent requests coalesce: at most one flush per SIGNAL_FLUSH_MIN_GAP_MS', async () => {
    const gap = 150;
    const t = await startTestApp({ database: a.db, env: { SIGNAL_FLUSH_MIN_GAP_MS: String(gap) } });
    try {
      const signals = t.notifyd.app.get(SignalsService);
      const project = await t.createProject();
      const before = signals.stats().flushes;
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          t.http
            .post('/v1/send')
            .set('X-Api-Key', project.key)
            .send({ channels: ['sms'], to: `+3361000${String(i).padStart(4, '0')}`, body: 'hi' }),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
      await signals.flush();
      const elapsed = Date.now() - started;
      const flushes = signals.stats().flushes - before;
      expect(flushes).toBeGreaterThanOrEqual(1);
      // The first flush starts at once, then one per gap at most; flush() above forced the last.
      expect(flushes).toBeLessThanOrEqual(Math.floor(elapsed / gap) + 2);
      await tap.waitFor((p) => p === 'jobs.due:sms');
      await sleep(100);
      // One jobs.due message per flush at most, never one per request.
      expect(tap.matching('jobs.due:sms').length).toBeLessThanOrEqual(flushes);
      expect(tap.matching('jobs.due:sms').length).toBeLessThan(40);
    } finally {
      await t.close();
    }
  });

  describe('a transaction notifyd does not commit (pg_xact_status)', () => {
    let client: pg.Client;
    beforeEach(async () => {
      client = new pg.Client({ connectionString: a.db.url });
      await client.connect();
    });
    afterEach(() => client.end());

    const openTransaction = async () => {
      await client.query('BEGIN');
      const { rows } = await client.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
      return rows[0].xid;
    };

    it('an in-progress transaction’s signal is kept until it commits, then sent', async () => {
      const xid = await openTransaction();
      signalsA.sendWhenCommitted(xid, 'test.foreign', 'committed-later');
      for (let i = 0; i < 3; i++) {
        await signalsA.flush();
        await sleep(30);
      }
      expect(tap.matching('test.foreign:')).toEqual([]);
      await client.query('COMMIT');
      await tap.waitFor((p) => p === 'test.foreign:committed-later', 20_000);
    });

    it('a rolled-back transaction’s signal is never sent', async () => {
      const droppedBefore = signalsA.stats().dropped;
      const xid = await openTransaction();
      signalsA.sendWhenCommitted(xid, 'test.foreign', 'rolled-back');
      await signalsA.flush();
      await client.query('ROLLBACK');
      // A committed neighbour in the same flush goes out; the rolled-back one is dropped.
      const xid2 = await openTransaction();
      await client.query('COMMIT');
      signalsA.sendWhenCommitted(xid2, 'test.foreign', 'neighbour');
      await eventually(async () => signalsA.stats().dropped > droppedBefore || undefined);
      await tap.waitFor((p) => p === 'test.foreign:neighbour', 20_000);
      await signalsA.flush();
      await sleep(100);
      expect(tap.matching('test.foreign:rolled-back')).toEqual([]);
      expect(signalsA.stats().dropped).toBe(droppedBefore + 1);
    });
  });

  it('killing the listening connection: it reconnects with backoff, subscribers resync, signals flow again', async () => {
    const onA = new Recorder();
    const off = signalsA.subscribe('test.kill', onA);
    try {
      const connectionsBefore = signalsA.stats().connections;
      const killed = await a.db.sql<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE application_name = 'notifyd-listener' AND datname = current_database()`,
      );
      expect(killed.length).toBe(2); // one per replica
      await a.db.sql(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'notifyd-listener' AND datname = current_database()`,
      );
      await eventually(async () => onA.resyncs >= 1 || undefined, 10_000);
      expect(signalsA.stats().connections).toBe(connectionsBefore + 1);
      expect(signalsA.listening).toBe(true);
      const now = await a.db.sql<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE application_name = 'notifyd-listener' AND datname = current_database()`,
      );
      expect(now.map((r) => r.pid).some((pid) => killed.some((k) => k.pid === pid))).toBe(false);
      signalsB.send('test.kill', 'after');
      await eventually(async () => onA.keys.includes('after') || undefined);
    } finally {
      off();
    }
  });

  it('a half-open listening connection is found by the heartbeat and replaced', async () => {
    const target = new URL(a.db.url);
    const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    const port = await proxy.start();
    const proxied = new URL(a.db.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(port);
    const received: string[] = [];
    let connects = 0;
    const warnings: string[] = [];
    const listener = new SignalListener({
      url: proxied.toString(),
      // Seconds, not ms: a heartbeat a loaded machine answers late would replace the connection
      // before the blackhole, and the 'after' signal would be sent to a connection being replaced.
      heartbeatMs: 2_000,
      onSignal: (p) => received.push(p),
      onConnected: () => connects++,
      log: { log: () => undefined, warn: (m) => warnings.push(m) },
    });
    try {
      listener.start();
      await eventually(async () => connects === 1 || undefined);
      await a.db.sql(`SELECT pg_notify('notifyd_signals', 'test.halfopen:before')`);
      await eventually(async () => received.includes('test.halfopen:before') || undefined);

      proxy.blackhole();
      // Nothing closes the socket: only the heartbeat's deadline can notice.
      await eventually(async () => connects === 2 || undefined, 20_000);
      expect(warnings.some((w) => /heartbeat unanswered/.test(w))).toBe(true);
      expect(proxy.accepted).toBe(2);
      await a.db.sql(`SELECT pg_notify('notifyd_signals', 'test.halfopen:after')`);
      await eventually(async () => received.includes('test.halfopen:after') || undefined);
    } finally {
      await listener.stop();
      await proxy.stop();
    }
  });
});
