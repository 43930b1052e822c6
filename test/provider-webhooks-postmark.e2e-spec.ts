import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config/app-config.js';
import { sentEmail as sentEmailVia, useProviderApp } from './helpers/provider-app.js';

const USER = 'postmark-hooks';
const PASS = 'pm-0123456789abcdef-secret';

/** Postmark events in: Basic credentials from the webhook URL, dedup by (MessageID, RecordType). */
describe('provider webhooks: Postmark', () => {
  const app = useProviderApp({
    fakes: [],
    env: () => ({ POSTMARK_WEBHOOK_USERNAME: USER, POSTMARK_WEBHOOK_PASSWORD: PASS }),
  });
  const sentEmail = () => sentEmailVia(app, `pm+${randomUUID().slice(0, 8)}@example.com`);
  const post = (body: unknown, user = USER, pass = PASS) =>
    app.t.http
      .post('/webhooks/postmark')
      .auth(user, pass)
      .set('content-type', 'application/json')
      .send(JSON.stringify(body));
  const job = async (id: string) => (await app.t.http.get(`/v1/jobs/${id}`).set('X-Api-Key', app.project.key)).body;
  const suppressions = (address: string) =>
    app.t.db.sql(
      `SELECT reason, source FROM suppressions WHERE project_id = $1 AND address = $2 AND released_at IS NULL`,
      [app.project.id, address],
    );

  it('refuses missing or wrong credentials with 401, before reading the body', async () => {
    const sent = await sentEmail();
    const delivery = {
      RecordType: 'Delivery',
      MessageID: sent.messageId,
      Recipient: sent.to,
      DeliveredAt: new Date().toISOString(),
    };
    expect((await post(delivery, USER, 'wrong-password-0000')).status).toBe(401);
    expect((await post(delivery, 'someone', PASS)).status).toBe(401);
    const none = await app.t.http
      .post('/webhooks/postmark')
      .set('content-type', 'application/json')
      .send(JSON.stringify(delivery));
    expect(none.status).toBe(401);
    expect(none.body.message).toMatch(/missing Authorization/);
    expect(
      (await app.t.http.post('/webhooks/postmark').set('content-type', 'application/json').send('{oops')).status,
    ).toBe(401);
    expect((await job(sent.id)).delivered_at).toBeNull();
  });

  it('Delivery stamps delivered_at once; the replay is a 200 duplicate', async () => {
    const sent = await sentEmail();
    const delivery = {
      RecordType: 'Delivery',
      MessageID: sent.messageId,
      Recipient: sent.to,
      DeliveredAt: '2026-11-30T10:00:05Z',
      Details: 'Test',
    };
    expect((await post(delivery)).body).toEqual({ success: true, recorded: 1, duplicates: 0 });
    expect((await post(delivery)).body).toEqual({ success: true, recorded: 0, duplicates: 1 });
    const page = await job(sent.id);
    expect(page.delivered_at).toBe('2026-11-30T10:00:05.000Z');
    expect(page.provider_events).toEqual([
      expect.objectContaining({ provider: 'postmark', type: 'Delivery', kind: 'delivered', recipients: [sent.to] }),
    ]);
  });

  it('HardBounce bounces the job and suppresses the address; SoftBounce is recorded only (job found by Metadata)', async () => {
    const hard = await sentEmail();
    const bounce = {
      RecordType: 'Bounce',
      ID: 4323372036854775807,
      Type: 'HardBounce',
      TypeCode: 1,
      MessageID: hard.messageId,
      Email: hard.to,
      Description: 'The server was unable to deliver your message (ex: unknown user, mailbox not found).',
      Inactive: true,
      BouncedAt: '2026-11-30T10:00:06Z',
      Metadata: { notifyd_job_id: hard.id },
    };
    expect((await post(bounce)).status).toBe(200);
    const page = await job(hard.id);
    expect([page.status, page.error]).toEqual([
      'bounced',
      'bounced (HardBounce): The server was unable to deliver your message (ex: unknown user, mailbox not found).',
    ]);
    expect(await suppressions(hard.to)).toEqual([{ reason: 'bounce', source: 'postmark-webhook' }]);

    const soft = await sentEmail();
    expect(
      (
        await post({
          RecordType: 'Bounce',
          Type: 'SoftBounce',
          TypeCode: 4096,
          MessageID: soft.messageId,
          Email: soft.to,
          Inactive: false,
          Description: 'mailbox full',
        })
      ).status,
    ).toBe(200);
    const softPage = await job(soft.id);
    expect([softPage.status, softPage.bounced_at, softPage.provider_events[0].kind]).toEqual([
      'sent',
      null,
      'soft_bounced',
    ]);
    expect(await suppressions(soft.to)).toEqual([]);
  });

  it('SpamComplaint stamps complained_at and suppresses the address', async () => {
    const sent = await sentEmail();
    expect(
      (
        await post({
          RecordType: 'SpamComplaint',
          Type: 'SpamComplaint',
          TypeCode: 512,
          MessageID: sent.messageId,
          Email: sent.to,
          BouncedAt: '2026-11-30T10:00:07Z',
        })
      ).status,
    ).toBe(200);
    const page = await job(sent.id);
    expect(page.complained_at).toBe('2026-11-30T10:00:07.000Z');
    expect(await suppressions(sent.to)).toEqual([{ reason: 'complaint', source: 'postmark-webhook' }]);
  });

  it('a payload without MessageID is a 400 naming it', async () => {
    const res = await post({ RecordType: 'Delivery' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/MessageID/);
  });

  it('the credentials are configured in pairs', () => {
    expect(() => loadConfig({ POSTMARK_WEBHOOK_USERNAME: 'x' })).toThrow(
      /POSTMARK_WEBHOOK_USERNAME and POSTMARK_WEBHOOK_PASSWORD go together/,
    );
    expect(() => loadConfig({ POSTMARK_WEBHOOK_USERNAME: 'x', POSTMARK_WEBHOOK_PASSWORD: 'short' })).toThrow(
      /POSTMARK_WEBHOOK_PASSWORD must be at least 16 characters/,
    );
  });
});
