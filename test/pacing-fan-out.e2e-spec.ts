import { FcmFake } from './fakes/fcm-fake.js';
import type { FakeAnswer, RecordedRequest } from './fakes/provider-fake.js';
import { ResendFake } from './fakes/resend-fake.js';
import { spawnNotifyd, type NotifydProcess } from './helpers/spawn-notifyd.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';

/** FCM's fake, noting when each send arrived (the OAuth token requests are another API, not metered). */
class TimedFcmFake extends FcmFake {
  readonly arrivals: number[] = [];
  protected override async answer(req: RecordedRequest): Promise<FakeAnswer> {
    if (req.path.endsWith('/messages:send')) this.arrivals.push(Date.now());
    return super.answer(req);
  }
}

const RATE = 4; // requests per second on each lane
const BURST = RATE; // PACING_BURST_SECS=1

/**
 * Pacing meters what the provider counts: a connector that turns one call into several HTTP
 * requests (Resend: one per email with attachments; push: one per device) takes one token per
 * request before the call, and a call larger than the bucket is cut. Two real worker processes
 * share each lane at a low rate; the fakes count what arrives per second.
 */
describe('pacing of fan-out connectors (two worker processes, provider fakes)', () => {
  let db: TestDatabase;
  let resend: ResendFake;
  let fcm: TimedFcmFake;
  let workers: NotifydProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    resend = new ResendFake('re_test_key_0123456789');
    fcm = new TimedFcmFake();
    await Promise.all([resend.start(), fcm.start()]);
    await db.sql(`INSERT INTO projects (id, name) VALUES ('acme', 'Acme')`);
    const env = {
      EMAIL_PROVIDER: 'resend',
      RESEND_API_KEY: 're_test_key_0123456789',
      RESEND_BASE_URL: resend.url,
      EMAIL_FROM: 'ops@acme.example',
      PUSH_PROVIDER: 'native',
      FCM_SERVICE_ACCOUNT_JSON: JSON.stringify(fcm.serviceAccount),
      FCM_API_BASE: fcm.url,
      EMAIL_RATE_PER_SEC: String(RATE),
      PUSH_RATE_PER_SEC: String(RATE),
      PACING_BURST_SECS: '1',
      PACING_ADAPTIVE: 'false',
      WORKER_BATCH_SIZE: '100',
      WORKER_POLL_INTERVAL_MS: '100',
    };
    workers = await Promise.all([0, 1].map(() => spawnNotifyd({ databaseUrl: db.url, env, startTimeoutMs: 120_000 })));
  }, 180_000);

  afterAll(async () => {
    for (const w of workers) w.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await Promise.all([resend?.stop(), fcm?.stop()]);
    await db?.drop();
  });

  const until = async (what: () => Promise<boolean>, timeoutMs: number) => {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      if (await what()) return true;
      await new Promise((r) => setTimeout(r, 250));
    }
    return false;
  };
  const allSent = (channel: string, count: number) => async () =>
    Number((await db.sql(`SELECT count(*) AS n FROM jobs WHERE channel = $1 AND status = 'sent'`, [channel]))[0].n) ===
    count;
  const lane = async (key: string) =>
    (await db.sql(`SELECT calls_total, tokens_total FROM pacing_lanes WHERE lane_key = $1`, [key]))[0];
  /**
   * The bound a shared bucket promises (GCRA): from a moment t0 before the jobs existed, the
   * tokens whose slot has come by time t are at most one bucket plus rate × (t − t0), and a
   * request leaves only after its slot. So the k-th request to arrive, at time a, satisfies
   * k ≤ BURST + RATE × (a − t0): a slow or starved worker only delays arrivals and cannot break
   * it (a peak per window could: a worker starved under the full suite sends the calls whose
   * slots passed together). Unpaced, every request (60 and 48) arrives within about a second
   * of t0, far above the bound (4 + 4 × 1.5 = 10 at 1 s).
   */
  const expectPaced = (arrivals: number[], t0: number) => {
    const sorted = [...arrivals].sort((a, b) => a - b);
    const over = sorted
      .map((at, i) => ({ k: i + 1, seconds: (at - t0) / 1000 }))
      .filter(({ k, seconds }) => k > BURST + RATE * (seconds + 0.5)); // 0.5 s: clock reading and rounding
    expect(over).toEqual([]);
  };

  it('Resend: every email with attachments is one request and one token; the batch of the others is one', async () => {
    const attachment = [
      {
        filename: 'invoice.pdf',
        content: Buffer.from('%PDF-1.4 hi').toString('base64'),
        content_type: 'application/pdf',
      },
    ];
    // 36 emails with an attachment and 24 without, interleaved, claimed in batches of 100 by two workers.
    const t0 = Date.now();
    await db.sql(
      `INSERT INTO jobs (project_id, channel, recipient, priority, payload)
       SELECT 'acme', 'email', 'user' || g || '@example.com', 50,
              jsonb_build_object('subject', 'Invoice', 'body', 'hi') || CASE WHEN g % 5 < 3 THEN jsonb_build_object('attachments', $1::jsonb) ELSE '{}'::jsonb END
         FROM generate_series(1, 60) g`,
      [JSON.stringify(attachment)],
    );
    expect(await until(allSent('email', 60), 90_000)).toBe(true);

    const requests = resend.requests.filter((r) => r.path === '/emails' || r.path === '/emails/batch');
    expect(resend.emails).toHaveLength(60);
    expect(requests.filter((r) => r.path === '/emails' && r.body.attachments)).toHaveLength(36);
    expectPaced(
      requests.map((r) => r.at),
      t0,
    );
    // The shared bucket was charged exactly the requests the provider received.
    expect(Number((await lane('email:resend')).tokens_total)).toBe(requests.length);
  }, 120_000);

  it('push: a subscriber with three devices costs three tokens, and a call over the bucket is cut', async () => {
    // 16 subscribers × 3 FCM devices: 48 requests for 16 jobs (a call of 16 jobs would be 48 at once).
    await db.sql(`INSERT INTO subscribers (project_id, id) SELECT 'acme', 'sub' || g FROM generate_series(1, 16) g`);
    await db.sql(
      `INSERT INTO push_tokens (project_id, subscriber_id, platform, token)
       SELECT 'acme', 'sub' || g, 'fcm', 'ok:APA91b' || g || '-' || d FROM generate_series(1, 16) g, generate_series(1, 3) d`,
    );
    // Two subscribers without a device: their jobs close as skipped and cost nothing.
    await db.sql(`INSERT INTO subscribers (project_id, id) VALUES ('acme', 'bare1'), ('acme', 'bare2')`);
    const t0 = Date.now();
    await db.sql(
      `INSERT INTO jobs (project_id, channel, recipient, subscriber_id, priority, payload)
       SELECT 'acme', 'push', s, s, 50, '{"subject":"Hi","body":"hello"}'::jsonb
         FROM (SELECT 'sub' || g AS s FROM generate_series(1, 16) g UNION ALL VALUES ('bare1'), ('bare2')) subs`,
    );
    expect(await until(allSent('push', 18), 90_000)).toBe(true);

    expect(fcm.sends).toHaveLength(48);
    expectPaced(fcm.arrivals, t0);
    expect(Number((await lane('push:native')).tokens_total)).toBe(48);
  }, 120_000);
});
