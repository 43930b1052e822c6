import { setTimeout as sleep } from 'node:timers/promises';
import { RecordingConnector, RecordingConnectorModule } from './helpers/recording-connector.js';
import { ADMIN_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * A job's lateness runs from the time its sender asked for (scheduled_at, or the enqueue time),
 * not from the fair-share slot (run_at) notifyd gave it: in the digest's oldest-waiting figure
 * and in its sent_at − scheduled_at latency. Fair share spaces one project's SMS 10 s apart here
 * (SMS_RATE_PER_SEC=0.1, the recording connector sends one message per call): 10 s, not 5 s, so
 * that the second slot is still ahead when the digest is read 3 s after the first send even on
 * a loaded machine, where sending and draining can take seconds.
 */
describe('digest: lateness from the requested time', () => {
  let t: TestApp;
  let project: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({
      env: { SMS_PROVIDER: 'recording', SMS_RATE_PER_SEC: '0.1', PACING_FAIR_SHARE: 'true' },
      imports: [RecordingConnectorModule],
    });
    project = await t.createProject('lateco');
  });
  afterAll(() => t?.close());

  const digest = async () => (await t.http.get('/v1/admin/digest?window=1h').set('X-Api-Key', ADMIN_KEY)).body;

  it('a job held behind its fair-share slot is late from the time asked for; sent at T + x, its latency is x', async () => {
    const asked = Date.now();
    for (const to of ['+33611111101', '+33611111102', '+33611111103']) {
      expect(
        (
          await t.http
            .post('/v1/send')
            .set('X-Api-Key', project.key)
            .send({ channels: ['sms'], to, body: 'code 1234' })
        ).status,
      ).toBe(200);
    }
    const jobs = await t.db.sql(`SELECT scheduled_at, run_at FROM jobs ORDER BY run_at`);
    // All three asked for now; fair share gave the 2nd and 3rd slots 10 and 20 s later.
    expect(new Date(jobs[2].run_at).getTime() - new Date(jobs[2].scheduled_at).getTime()).toBeGreaterThanOrEqual(
      19_000,
    );
    expect(await t.worker.drainOnce()).toBe(1);

    await sleep(3_000);
    const waiting = await digest();
    // Neither remaining job is due yet (run_at ahead), yet both are 3 s late already.
    expect(waiting.queue).toMatchObject({ pending: 2, due: 0, late: 2 });
    const elapsed = (Date.now() - asked) / 1000;
    expect(waiting.queue.oldest_waiting_seconds.normal).toBeGreaterThanOrEqual(2);
    expect(waiting.queue.oldest_waiting_seconds.normal).toBeLessThanOrEqual(Math.ceil(elapsed) + 1);

    // The second slot comes: it is sent about 10 s after it was asked for, and that is its latency.
    await sleep(Math.max(0, new Date(jobs[1].run_at).getTime() - Date.now()) + 300);
    expect(await t.worker.drainOnce()).toBe(1);
    const [second] = await t.db.sql(
      `SELECT extract(epoch FROM sent_at - scheduled_at)::float8 AS late, extract(epoch FROM sent_at - run_at)::float8 AS after_slot FROM jobs WHERE status = 'sent' ORDER BY sent_at DESC LIMIT 1`,
    );
    expect(second.late).toBeGreaterThanOrEqual(8); // its slot, 10 s after the first job's, less the time between the sends
    // Soon after its slot (a drain on a loaded machine may take seconds), far less than its lateness.
    expect(second.after_slot).toBeLessThan(5);
    const sent = await digest();
    const sms = sent.latency.find((l: { channel: string }) => l.channel === 'sms');
    expect(sms.samples).toBe(2);
    // p95 of {≈0 s, ≈10 s}: the second job's lateness (within the histogram's 5 %), not its time after the slot.
    expect(Math.abs(sms.p95_seconds - second.late) / second.late).toBeLessThan(0.06);
    expect(t.notifyd.app.get(RecordingConnector).messages).toHaveLength(2);
  });

  it('a job scheduled for later is not late before its time, even when its slot is earlier', async () => {
    await t.db.sql(`DELETE FROM jobs`);
    await t.db.sql(
      `INSERT INTO jobs (project_id, channel, recipient, status, priority, scheduled_at, run_at)
       VALUES ($1, 'sms', '+33611111199', 'pending', 50, now() + interval '10 minutes', now() + interval '10 minutes'),
              ($1, 'sms', '+33611111198', 'pending', 90, now() - interval '2 hours', now() + interval '1 minute')`,
      [project.id],
    );
    const r = await digest();
    expect(r.queue).toMatchObject({ pending: 2, due: 0, late: 1 });
    expect(r.queue.oldest_waiting_seconds.normal).toBeNull();
    expect(r.queue.oldest_waiting_seconds.bulk).toBeGreaterThanOrEqual(7_199);
    // Two hours late behind a slot a minute ahead: the bulk limit (1 h) is passed.
    expect(r.findings.find((f: { code: string }) => f.code === 'queue_oldest_waiting')).toMatchObject({
      severity: 'warning',
      evidence: { band: 'bulk' },
    });
  });
});
