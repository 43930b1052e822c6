import { ResendFake } from './fakes/resend-fake.js';
import { useProviderApp } from './helpers/provider-app.js';
import { ADMIN_KEY } from './helpers/test-app.js';

/**
 * What fails now shows in the digest while it fails, not once notifyd has given up: Resend
 * answering 500 puts jobs of two projects in retry, and the digest reports the provider failing
 * (causes, projects, how long, the fix) before any job has failed; Resend answering 429 pauses
 * the lane, and the digest counts the messages the pause holds.
 */
describe('digest: failing now', () => {
  const fake = new ResendFake('re_test_key');
  const app = useProviderApp({
    fakes: [fake],
    env: () => ({
      EMAIL_PROVIDER: 'resend',
      RESEND_API_KEY: 're_test_key',
      RESEND_BASE_URL: fake.url,
      OUTBOUND_TIMEOUT_MS: '3000',
      EMAIL_FROM: 'hello@acme.example',
      PUBLIC_URL: 'https://notify.acme.example',
    }),
  });
  let other: { id: string; key: string };

  beforeAll(async () => {
    other = await app.t.createProject('failingnow2');
  });
  beforeEach(async () => {
    fake.reset();
    await app.t.db.sql(`DELETE FROM jobs`);
    await app.t.db.sql(`UPDATE pacing_lanes SET paused_until = NULL, pause_kind = NULL, pause_reason = NULL`);
  });

  const digest = async () => (await app.t.http.get('/v1/admin/digest?window=1h').set('X-Api-Key', ADMIN_KEY)).body;
  const sendAs = async (key: string, to: string) => {
    const res = await app.t.http
      .post('/v1/send')
      .set('X-Api-Key', key)
      .send({ channels: ['email'], to, subject: 'Hi', body: 'Hello' });
    expect(res.status).toBe(200);
    return res.body.job_ids[0] as string;
  };

  it('a provider answering 500: the jobs retry, and the digest reports it now, before any has failed', async () => {
    fake.script = () => ({ status: 500, name: 'internal_server_error', message: 'An unexpected error occurred.' });
    for (let i = 0; i < 4; i++) await sendAs(app.project.key, `a${i}@customer.example`);
    for (let i = 0; i < 2; i++) await sendAs(other.key, `b${i}@customer.example`);
    await app.t.worker.drainOnce();
    expect((await app.t.db.sql(`SELECT DISTINCT status FROM jobs`)).map((r) => r.status)).toEqual(['retry']);

    const r = await digest();
    // Nothing has failed: the failure rule has nothing to say, the failing-now one does.
    expect(r.outcomes).toEqual([]);
    expect(r.findings.find((f: { code: string }) => f.code === 'failure_rate')).toBeUndefined();
    expect(r.retrying).toEqual([
      {
        channel: 'email',
        provider: 'resend',
        count: 6,
        projects: 2,
        project_ids: [app.project.id, other.id].sort(),
        oldest_late_seconds: expect.any(Number),
        next_retry_at: expect.any(String),
        sample_job_id: expect.any(String),
        causes: [{ reason: 'Resend 500 internal_server_error: An unexpected error occurred.', count: 6 }],
      },
    ]);
    const f = r.findings.find((x: { code: string }) => x.code === 'provider_failing');
    expect(f).toMatchObject({ severity: 'warning', harm: { held: 6, lost: 0, projects: 2, channels: ['email'] } });
    expect(f.message).toContain(
      'email through resend is failing now: 6 job(s) wait to retry after "Resend 500 internal_server_error: An unexpected error occurred.";',
    );
    expect(f.message).toContain('Nothing is lost yet');
    expect(f.action).toContain(`GET /v1/admin/jobs/${r.retrying[0].sample_job_id}`);
    expect(f.action).toContain('EMAIL_FALLBACK_PROVIDER');
    expect(f.action).toContain('POST /v1/admin/lanes/email:resend/pause');
    expect(
      await app.t.db.sql(`SELECT id FROM jobs WHERE id = $1 AND status = 'retry'`, [r.retrying[0].sample_job_id]),
    ).toHaveLength(1);

    // The provider is back: the retries go out and the finding is gone.
    fake.reset();
    await app.t.db.sql(`UPDATE jobs SET run_at = now(), next_retry_at = now() WHERE status = 'retry'`);
    await app.t.worker.drainOnce();
    const after = await digest();
    expect(after.retrying).toEqual([]);
    expect(after.findings.find((x: { code: string }) => x.code === 'provider_failing')).toBeUndefined();
  });

  it('a 429 pauses the lane: the digest counts the messages the pause holds, in which projects', async () => {
    fake.script = () => ({
      status: 429,
      name: 'rate_limit_exceeded',
      message: 'Too many requests.',
      headers: { 'retry-after': '600' },
    });
    for (let i = 0; i < 8; i++) await sendAs(app.project.key, `c${i}@customer.example`);
    for (let i = 0; i < 4; i++) await sendAs(other.key, `d${i}@customer.example`);
    await app.t.worker.drainOnce();

    const r = await digest();
    expect(r.instance.paused_lanes).toContain('email:resend');
    expect(r.waiting).toEqual([expect.objectContaining({ channel: 'email', pending: 12, late: 12, projects_late: 2 })]);
    const f = r.findings.find((x: { code: string }) => x.code === 'lane_paused');
    expect(f).toMatchObject({ severity: 'warning', harm: { held: 12, lost: 0, projects: 2, channels: ['email'] } });
    expect(f.message).toContain('12 message(s) of 2 project(s) late');
  });
});
