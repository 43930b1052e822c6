import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config/app-config.js';
import { SnsFake } from './fakes/sns-signer.js';
import { sentEmail as sentEmailVia, useProviderApp } from './helpers/provider-app.js';

const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:ses-events';

/** Amazon SES events through SNS: topic allowlist, SNS signature, subscription confirmation. */
describe('provider webhooks: Amazon SES via SNS', () => {
  const sns = new SnsFake();
  // The test base is the only way a loopback certificate URL is accepted (never in production).
  const app = useProviderApp({
    fakes: [sns],
    env: () => ({ SES_SNS_TOPIC_ARNS: TOPIC, SNS_TEST_ENDPOINT_BASE: sns.base }),
  });
  const sentEmail = () => sentEmailVia(app, `ses+${randomUUID().slice(0, 8)}@example.com`);
  // SNS posts JSON with Content-Type text/plain.
  const post = (body: unknown) =>
    app.t.http
      .post('/webhooks/ses')
      .set('content-type', 'text/plain; charset=UTF-8')
      .set('x-amz-sns-message-type', (body as { Type: string }).Type)
      .send(JSON.stringify(body));
  const sesMessage = (sent: { id?: string; to: string; messageId: string }, event: Record<string, unknown>) =>
    JSON.stringify({
      mail: {
        messageId: sent.messageId,
        timestamp: '2026-11-30T10:00:00.000Z',
        destination: [sent.to],
        tags: sent.id ? { notifyd_job_id: [sent.id] } : {},
      },
      ...event,
    });
  const job = async (id: string) => (await app.t.http.get(`/v1/jobs/${id}`).set('X-Api-Key', app.project.key)).body;
  const suppressions = (address: string) =>
    app.t.db.sql(
      `SELECT reason, source FROM suppressions WHERE project_id = $1 AND address = $2 AND released_at IS NULL`,
      [app.project.id, address],
    );

  it('confirms a subscription by visiting SubscribeURL, after verifying it', async () => {
    const confirm = sns.message({
      Type: 'SubscriptionConfirmation',
      Message: 'You have chosen to subscribe…',
      SubscribeURL: `${sns.base}confirm?Token=abc`,
      Token: 'abc',
    });
    const res = await post(confirm);
    expect(res.status).toBe(200);
    expect(sns.confirmations).toEqual(['/confirm?Token=abc']);
    // A forged confirmation (bad signature) is not visited.
    const forged = {
      ...sns.message({
        Type: 'SubscriptionConfirmation',
        SubscribeURL: `${sns.base}confirm?Token=evil`,
        Token: 'evil',
      }),
      Token: 'evil2',
    };
    expect((await post(forged)).status).toBe(401);
    expect(sns.confirmations).toHaveLength(1);
  });

  it('Delivery (v2 signature, Subject) stamps delivered_at; the replay is a duplicate', async () => {
    const sent = await sentEmail();
    const m = sns.message(
      {
        Subject: 'Amazon SES Email Event Notification',
        Message: sesMessage(sent, {
          eventType: 'Delivery',
          delivery: { timestamp: '2026-11-30T10:00:04.000Z', recipients: [sent.to] },
        }),
      },
      '2',
    );
    expect((await post(m)).body).toEqual({ success: true, recorded: 1, duplicates: 0 });
    expect((await post(m)).body).toEqual({ success: true, recorded: 0, duplicates: 1 });
    const page = await job(sent.id);
    expect(page.delivered_at).toBe('2026-11-30T10:00:04.000Z');
    expect(page.provider_events[0]).toMatchObject({ provider: 'ses', type: 'Delivery', kind: 'delivered' });
  });

  it('Permanent bounce (found by mail.messageId) bounces and suppresses; Transient is recorded only; Complaint suppresses', async () => {
    const hard = await sentEmail();
    const bounce = {
      notificationType: 'Bounce',
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'General',
        bouncedRecipients: [{ emailAddress: hard.to, diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
        timestamp: '2026-11-30T10:00:05.000Z',
      },
    };
    expect(
      (await post(sns.message({ Message: sesMessage({ to: hard.to, messageId: hard.messageId }, bounce) }))).status,
    ).toBe(200);
    const page = await job(hard.id);
    expect([page.status, page.error]).toEqual(['bounced', 'bounced (Permanent/General): smtp; 550 5.1.1 user unknown']);
    expect(await suppressions(hard.to)).toEqual([{ reason: 'bounce', source: 'ses-webhook' }]);

    const soft = await sentEmail();
    const transient = {
      eventType: 'Bounce',
      bounce: { bounceType: 'Transient', bounceSubType: 'MailboxFull', bouncedRecipients: [{ emailAddress: soft.to }] },
    };
    expect((await post(sns.message({ Message: sesMessage(soft, transient) }))).status).toBe(200);
    expect((await job(soft.id)).status).toBe('sent');
    expect(await suppressions(soft.to)).toEqual([]);

    const complained = await sentEmail();
    const complaint = {
      eventType: 'Complaint',
      complaint: {
        complainedRecipients: [{ emailAddress: complained.to }],
        complaintFeedbackType: 'abuse',
        timestamp: '2026-11-30T10:00:06.000Z',
      },
    };
    expect((await post(sns.message({ Message: sesMessage(complained, complaint) }))).status).toBe(200);
    expect((await job(complained.id)).complained_at).toBe('2026-11-30T10:00:06.000Z');
    expect(await suppressions(complained.to)).toEqual([{ reason: 'complaint', source: 'ses-webhook' }]);
  });

  it('refuses: another topic (403, no certificate fetched), a tampered message, a certificate URL off SNS (401)', async () => {
    const sent = await sentEmail();
    const fetchesBefore = sns.certFetches;
    const foreign = sns.message({
      TopicArn: 'arn:aws:sns:eu-west-1:999999999999:someone-else',
      SigningCertURL: `${sns.base}other.pem`,
      Message: sesMessage(sent, { eventType: 'Delivery' }),
    });
    expect((await post(foreign)).status).toBe(403);
    expect(sns.certFetches).toBe(fetchesBefore);
    const m = sns.message({ Message: sesMessage(sent, { eventType: 'Delivery' }) });
    const tampered = await post({
      ...m,
      Message: sesMessage(sent, {
        eventType: 'Bounce',
        bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: sent.to }] },
      }),
    });
    expect(tampered.status).toBe(401);
    const offSns = await post(sns.message({ SigningCertURL: 'https://evil.example/cert.pem' }));
    expect(offSns.status).toBe(401);
    expect(offSns.body.message).toMatch(/sns.<region>.amazonaws.com/);
    expect((await post({ Type: 'Notification' })).status).toBe(400);
    expect((await job(sent.id)).delivered_at).toBeNull();
  });

  it('the same notification replayed 10 times concurrently changes state once', async () => {
    const sent = await sentEmail();
    const m = sns.message({
      Message: sesMessage(sent, {
        eventType: 'Bounce',
        bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: sent.to }] },
      }),
    });
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(m)));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(answers.reduce((s, r) => s + r.body.recorded, 0)).toBe(1);
    expect(
      await app.t.db.sql(`SELECT 1 FROM audit_log WHERE resource = $1 AND action = 'job.bounced'`, [sent.id]),
    ).toHaveLength(1);
    expect(await suppressions(sent.to)).toHaveLength(1);
  });

  it('SNS_TEST_ENDPOINT_BASE is loopback-only and refused in production', () => {
    expect(() => loadConfig({ SNS_TEST_ENDPOINT_BASE: 'http://10.0.0.5/' })).toThrow(
      /SNS_TEST_ENDPOINT_BASE must be a loopback URL/,
    );
    expect(() => loadConfig({ SNS_TEST_ENDPOINT_BASE: 'http://127.0.0.1:1/', NODE_ENV: 'production' })).toThrow(
      /SNS_TEST_ENDPOINT_BASE is refused when NODE_ENV=production/,
    );
  });
});
