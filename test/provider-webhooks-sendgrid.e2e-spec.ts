import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { loadConfig } from '../src/config/app-config.js';
import { sentEmail as sentEmailVia, useProviderApp } from './helpers/provider-app.js';

const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const PUBLIC_KEY = pair.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

/** SendGrid signed Event Webhook: ECDSA over timestamp + raw body, events keyed by sg_event_id. */
describe('provider webhooks: SendGrid', () => {
  const app = useProviderApp({ fakes: [], env: () => ({ SENDGRID_WEBHOOK_PUBLIC_KEY: PUBLIC_KEY }) });
  const sentEmail = () => sentEmailVia(app, `sg+${randomUUID().slice(0, 8)}@example.com`);
  const post = (events: unknown[], opts: { at?: Date; tamper?: boolean } = {}) => {
    const raw = JSON.stringify(events);
    const ts = String(Math.floor((opts.at ?? new Date()).getTime() / 1000));
    const signature = sign('sha256', Buffer.from(ts + raw), pair.privateKey).toString('base64');
    return app.t.http
      .post('/webhooks/sendgrid')
      .set('content-type', 'application/json')
      .set('x-twilio-email-event-webhook-signature', signature)
      .set('x-twilio-email-event-webhook-timestamp', ts)
      .send(opts.tamper ? raw.replace('delivered', 'bounce') : raw);
  };
  const ev = (
    event: string,
    sent: { id?: string; to: string; messageId: string },
    extra: Record<string, unknown> = {},
  ) => ({
    email: sent.to,
    timestamp: 1764496800,
    event,
    sg_event_id: `sg_${randomUUID()}`,
    sg_message_id: `${sent.messageId}.filterdrecv-5645d9c87f-78xgx-1-5F4F4A70-1A-0`,
    ...extra,
  });
  const job = async (id: string) => (await app.t.http.get(`/v1/jobs/${id}`).set('X-Api-Key', app.project.key)).body;
  const suppressions = (address: string) =>
    app.t.db.sql(
      `SELECT scope, reason, source FROM suppressions WHERE project_id = $1 AND address = $2 AND released_at IS NULL`,
      [app.project.id, address],
    );

  it('a batch of events: delivered (by sg_message_id), hard bounce (by custom arg), blocked, spamreport, unsubscribe', async () => {
    const [a, b, c, d, e] = [
      await sentEmail(),
      await sentEmail(),
      await sentEmail(),
      await sentEmail(),
      await sentEmail(),
    ];
    const events = [
      ev('delivered', a),
      ev('bounce', b, {
        notifyd_job_id: b.id,
        type: 'bounce',
        reason: '550 5.1.1 The email account does not exist.',
        status: '5.1.1',
      }),
      ev('bounce', c, { type: 'blocked', reason: '421 try later' }),
      ev('spamreport', d),
      ev('unsubscribe', e),
    ];
    const res = await post(events);
    expect(res.body).toEqual({ success: true, recorded: 5, duplicates: 0 });
    expect((await post(events)).body).toEqual({ success: true, recorded: 0, duplicates: 5 });
    expect((await job(a.id)).delivered_at).toBe(new Date(1764496800 * 1000).toISOString());
    const pb = await job(b.id);
    expect([pb.status, pb.error]).toEqual(['bounced', 'bounced (bounce): 550 5.1.1 The email account does not exist.']);
    expect(await suppressions(b.to)).toEqual([{ scope: 'all', reason: 'bounce', source: 'sendgrid-webhook' }]);
    const pc = await job(c.id);
    expect([pc.status, pc.provider_events[0].kind]).toEqual(['sent', 'soft_bounced']);
    expect(await suppressions(c.to)).toEqual([]);
    expect((await job(d.id)).complained_at).not.toBeNull();
    expect(await suppressions(d.to)).toEqual([{ scope: 'all', reason: 'complaint', source: 'sendgrid-webhook' }]);
    expect(await suppressions(e.to)).toEqual([
      { scope: 'marketing', reason: 'unsubscribe', source: 'sendgrid-webhook' },
    ]);
  });

  it('refuses a tampered body, a stale timestamp and missing headers with 401', async () => {
    const a = await sentEmail();
    expect((await post([ev('delivered', a)], { tamper: true })).status).toBe(401);
    const stale = await post([ev('delivered', a)], { at: new Date(Date.now() - 3_600_000) });
    expect(stale.status).toBe(401);
    expect(stale.body.message).toMatch(/300 s/);
    expect(
      (await app.t.http.post('/webhooks/sendgrid').set('content-type', 'application/json').send('[]')).status,
    ).toBe(401);
    expect((await job(a.id)).delivered_at).toBeNull();
  });

  it('a message id shared by several jobs (one batch call) is ambiguous: kept, applied to none; the custom arg picks one of them', async () => {
    const a = await sentEmail();
    const b = await sentEmail();
    await app.t.db.sql(`UPDATE jobs SET provider_message_id = 'shared-batch-id' WHERE id = ANY($1::uuid[])`, [
      [a.id, b.id],
    ]);
    expect((await post([ev('delivered', { to: a.to, messageId: 'shared-batch-id' })])).body.recorded).toBe(1);
    expect([(await job(a.id)).delivered_at, (await job(b.id)).delivered_at]).toEqual([null, null]);
    expect(
      (await post([ev('delivered', { to: b.to, messageId: 'shared-batch-id' }, { notifyd_job_id: b.id })])).body
        .recorded,
    ).toBe(1);
    expect([(await job(a.id)).delivered_at, (await job(b.id)).delivered_at === null]).toEqual([null, false]);
  });

  it('the same event replayed 10 times concurrently changes state once', async () => {
    const a = await sentEmail();
    const events = [ev('bounce', a, { type: 'bounce', reason: '550 no such user' })];
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(events)));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(answers.reduce((s, r) => s + r.body.recorded, 0)).toBe(1);
    expect(
      await app.t.db.sql(`SELECT 1 FROM audit_log WHERE resource = $1 AND action = 'job.bounced'`, [a.id]),
    ).toHaveLength(1);
    expect(await suppressions(a.to)).toHaveLength(1);
  });

  it('a wrong public key is refused at start-up with the variable named', () => {
    expect(() => loadConfig({ SENDGRID_WEBHOOK_PUBLIC_KEY: 'bm90IGEga2V5' })).toThrow(
      /SENDGRID_WEBHOOK_PUBLIC_KEY must be the base64 ECDSA P-256 public key/,
    );
  });
});
