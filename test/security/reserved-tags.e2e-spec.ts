import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { sentEmail, useProviderApp } from '../helpers/provider-app.js';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;

/**
 * `notifyd_job_id` is the tag notifyd puts on every email so that providers echo it in their
 * webhooks. A tenant could set it too, to another job's id, and the provider's evidence (a
 * bounce, a complaint) then landed on that job and suppressed its recipient. Tags starting with
 * `notifyd_` are refused at enqueue (422 naming the field), and evidence is matched by the
 * provider's message id: a job id it carries is only a hint, checked against that id.
 */
describe('security: reserved tags and the job an event is about', () => {
  const app = useProviderApp({ fakes: [], env: () => ({ RESEND_WEBHOOK_SECRET: SECRET }) });

  it.each(['notifyd_job_id', 'NOTIFYD_job_id', 'notifyd_anything'])(
    'send and batch refuse a %s tag with 422 naming the field',
    async (name) => {
      const tags = [
        { name: 'category', value: 'order' },
        { name, value: randomUUID() },
      ];
      const jobs = async () => (await app.t.db.sql(`SELECT count(*)::int AS n FROM jobs`))[0].n as number;
      const before = await jobs();
      const send = await app.t.http
        .post('/v1/send')
        .set('X-Api-Key', app.project.key)
        .send({ channels: ['email'], to: 'jane@example.com', body: 'x', tags });
      expect(send.status).toBe(422);
      expect(send.body.error).toBe('validation_failed');
      expect(send.body.message).toMatch(/^tags\[1\]\.name may not start with notifyd_/);
      const batch = await app.t.http
        .post('/v1/batch')
        .set('X-Api-Key', app.project.key)
        .send({ channels: ['email'], subscribers: ['u1'], body: 'x', tags });
      expect(batch.status).toBe(422);
      expect(batch.body.error).toBe('validation_failed');
      expect(batch.body.message).toMatch(/^tags\[1\]\.name may not start with notifyd_/);
      expect(await jobs()).toBe(before);
    },
  );

  describe('a forged event naming another job', () => {
    const signed = (payload: string, id = `msg_${randomUUID()}`, at = new Date()) => ({
      'content-type': 'application/json',
      'svix-id': id,
      'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
      'svix-signature': new Webhook(SECRET).sign(id, at, payload),
    });
    const bounce = (emailId: string, jobTag: string, to: string) =>
      JSON.stringify({
        type: 'email.bounced',
        created_at: new Date().toISOString(),
        data: {
          email_id: emailId,
          to: [to],
          tags: { notifyd_job_id: jobTag },
          bounce: { type: 'Permanent', message: 'no such user' },
        },
      });
    const post = (payload: string) => app.t.http.post('/webhooks/resend').set(signed(payload)).send(payload);
    const jobRow = async (id: string) =>
      (await app.t.db.sql(`SELECT status, bounced_at FROM jobs WHERE id = $1`, [id]))[0];
    const suppressed = (address: string) =>
      app.t.db.sql(`SELECT project_id FROM suppressions WHERE address = $1`, [address]);

    /** Another project's job, sent: the victim. */
    async function victimJob(): Promise<{ id: string; to: string; messageId: string }> {
      const other = await app.t.createProject();
      const to = `victim+${randomUUID().slice(0, 8)}@example.com`;
      const res = await app.t.http
        .post('/v1/send')
        .set('X-Api-Key', other.key)
        .send({ channels: ['email'], to, body: 'hello' });
      await app.t.worker.drainOnce();
      const id = res.body.job_ids[0] as string;
      const [row] = await app.t.db.sql(`SELECT provider_message_id FROM jobs WHERE id = $1`, [id]);
      return { id, to, messageId: row.provider_message_id };
    }

    it('with the attacker’s own message id: applied to the attacker’s job, never the one the tag names', async () => {
      const victim = await victimJob();
      const own = await sentEmail(app, `attacker+${randomUUID().slice(0, 8)}@example.com`);
      const res = await post(bounce(own.messageId, victim.id, victim.to));
      expect(res.body).toEqual({ success: true, recorded: 1, duplicates: 0 });
      expect(await jobRow(victim.id)).toEqual({ status: 'sent', bounced_at: null });
      expect((await jobRow(own.id)).status).toBe('bounced');
      expect(
        await app.t.db.sql(`SELECT job_id FROM provider_events WHERE provider_message_id = $1`, [own.messageId]),
      ).toEqual([{ job_id: own.id }]);
      // The suppression the bounce asks for lands in the attacker's project, not the victim's.
      expect(await suppressed(victim.to)).toEqual([{ project_id: app.project.id }]);
    });

    it('with an unknown message id: kept as evidence, applied to no job', async () => {
      const victim = await victimJob();
      const res = await post(bounce(`forged-${randomUUID()}`, victim.id, victim.to));
      expect(res.body).toEqual({ success: true, recorded: 1, duplicates: 0 });
      expect(await jobRow(victim.id)).toEqual({ status: 'sent', bounced_at: null });
      expect(await suppressed(victim.to)).toEqual([]);
      expect(await app.t.db.sql(`SELECT 1 FROM provider_events WHERE job_id = $1`, [victim.id])).toEqual([]);
    });

    it('the job’s own message id with its tag still applies (the genuine event)', async () => {
      const victim = await victimJob();
      expect((await post(bounce(victim.messageId, victim.id, victim.to))).status).toBe(200);
      expect((await jobRow(victim.id)).status).toBe('bounced');
    });
  });
});
