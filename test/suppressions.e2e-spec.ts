import { ProviderError } from '../src/connectors/provider-error.js';
import { SuppressionsRepository } from '../src/governance/suppressions/suppressions.repository.js';
import { jobRow, projectApi } from './helpers/project-api.js';
import { RecordingConnector, RecordingConnectorModule } from './helpers/recording-connector.js';
import { RecordingEmailConnector, RecordingEmailModule } from './helpers/recording-email-connector.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

describe('suppressions', () => {
  let t: TestApp;
  let sms: RecordingConnector;
  let email: RecordingEmailConnector;
  let project: { id: string; key: string };
  let other: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({
      env: { SMS_PROVIDER: 'recording', EMAIL_PROVIDER: 'recording-email' },
      imports: [RecordingConnectorModule, RecordingEmailModule],
    });
    sms = t.notifyd.app.get(RecordingConnector);
    email = t.notifyd.app.get(RecordingEmailConnector);
    project = await t.createProject();
    other = await t.createProject();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    sms.reset();
    email.reset();
    await t.db.sql(`DELETE FROM jobs`);
    await t.db.sql(`DELETE FROM suppressions`);
  });

  // t and project exist only once beforeAll has run: bind them per call.
  const api = (key = project.key) => projectApi(t, key);
  const job = (id: string) => jobRow(t, id);

  describe('API', () => {
    it('stores an email case-insensitively, once, and answers a repeat with the same suppression', async () => {
      const first = await api().post('/v1/suppressions', { email: ' Jane@Example.COM ', detail: 'asked to stop' });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        success: true,
        created: true,
        suppression: {
          channel: 'email',
          address: 'jane@example.com',
          email: 'jane@example.com',
          scope: 'all',
          reason: 'manual',
          source: 'api_key',
          detail: 'asked to stop',
          released_at: null,
        },
      });
      const again = await api().post('/v1/suppressions', { channel: 'email', address: 'jane@example.com' });
      expect(again.body).toMatchObject({ created: false, suppression: { id: first.body.suppression.id } });
      expect(await t.db.sql(`SELECT id FROM suppressions`)).toHaveLength(1);
    });

    it('normalises phone numbers to E.164 and rejects what is not one, naming the field', async () => {
      const ok = await api().post('/v1/suppressions', { channel: 'sms', address: '+33 6 12-34.56 78' });
      expect(ok.body.suppression).toMatchObject({ channel: 'sms', address: '+33612345678', email: null });
      const bad = await api().post('/v1/suppressions', { channel: 'whatsapp', address: '0612345678' });
      expect(bad.status).toBe(422);
      expect(bad.body.message).toMatch(/address must be an E\.164 phone number/);
      const badEmail = await api().post('/v1/suppressions', { email: 'not-an-email' });
      expect(badEmail.status).toBe(422);
      expect(badEmail.body.message).toMatch(/^email must be an email address/);
      const none = await api().post('/v1/suppressions', { scope: 'all' });
      expect(none.status).toBe(422);
      expect(none.body.message).toMatch(/email/);
      const scope = await api().post('/v1/suppressions', { email: 'a@example.com', scope: 'some' });
      expect(scope.status).toBe(422);
      expect(scope.body.message).toMatch(/scope must be one of all, marketing/);
    });

    it('keeps chat ids and subscriber ids verbatim, one list per channel', async () => {
      await api().post('/v1/suppressions', { channel: 'telegram', address: '123456789' });
      await api().post('/v1/suppressions', { channel: 'push', address: 'User_42' });
      const list = await api().get('/v1/suppressions');
      expect(
        list.body.data.map((s: { channel: string; address: string }) => `${s.channel}:${s.address}`).sort(),
      ).toEqual(['push:User_42', 'telegram:123456789']);
      const filtered = await api().get('/v1/suppressions?channel=push&address=User_42');
      expect(filtered.body.data).toHaveLength(1);
    });

    it('releases softly: gone from the active list, kept in the history, audited, and a second release is a 404', async () => {
      const { body } = await api().post('/v1/suppressions', { email: 'rel@example.com' });
      const id = body.suppression.id;
      const released = await api().del(`/v1/suppressions/${id}?reason=customer%20asked`);
      expect(released.status).toBe(200);
      expect(released.body).toMatchObject({
        success: true,
        id,
        suppression: { released_by: 'api', release_reason: 'customer asked' },
      });
      expect(released.body.suppression.released_at).not.toBeNull();
      expect((await api().get('/v1/suppressions')).body.data).toEqual([]);
      const history = await api().get('/v1/suppressions?include_released=true');
      expect(history.body.data.map((s: { id: string }) => s.id)).toEqual([id]);
      expect((await api().del(`/v1/suppressions/${id}`)).status).toBe(404);
      // A new suppression of the same address after the release is a fresh row.
      const again = await api().post('/v1/suppressions', { email: 'rel@example.com' });
      expect(again.body.created).toBe(true);
      expect(again.body.suppression.id).not.toBe(id);
      const audit = await t.db.sql(
        `SELECT action, actor, resource, metadata, ip FROM audit_log WHERE resource = ANY($1) ORDER BY id`,
        [[id, again.body.suppression.id]],
      );
      expect(audit.map((a) => a.action)).toEqual([
        'suppression.created',
        'suppression.released',
        'suppression.created',
      ]);
      expect(audit[1]).toMatchObject({ actor: 'api', resource: id, ip: expect.any(String) });
      // The audit names the suppression, never the address.
      expect(JSON.stringify(audit)).not.toContain('rel@example.com');
    });

    it('scope all replaces an active marketing suppression, which stays as history', async () => {
      const m = await api().post('/v1/suppressions', { email: 'mk@example.com', scope: 'marketing' });
      expect(m.body.suppression).toMatchObject({ scope: 'marketing', reason: 'unsubscribe' });
      // A repeated marketing unsubscribe is a no-op.
      expect((await api().post('/v1/suppressions', { email: 'mk@example.com', scope: 'marketing' })).body.created).toBe(
        false,
      );
      const all = await api().post('/v1/suppressions', { email: 'mk@example.com', scope: 'all' });
      expect(all.body).toMatchObject({ created: true, suppression: { scope: 'all' } });
      // A marketing request on top of scope all keeps all.
      const narrower = await api().post('/v1/suppressions', { email: 'mk@example.com', scope: 'marketing' });
      expect(narrower.body).toMatchObject({
        created: false,
        suppression: { id: all.body.suppression.id, scope: 'all' },
      });
      const history = await api().get('/v1/suppressions?include_released=true&address=mk@example.com');
      expect(
        history.body.data.map((s: { scope: string; release_reason: string | null }) => [s.scope, s.release_reason]),
      ).toEqual([
        ['all', null],
        ['marketing', 'superseded by a suppression of scope all'],
      ]);
    });

    it("another project's suppression is a 404 and does not block this project", async () => {
      const { body } = await api(other.key).post('/v1/suppressions', { email: 'shared@example.com' });
      expect((await api().get(`/v1/suppressions/${body.suppression.id}`)).status).toBe(404);
      expect((await api().del(`/v1/suppressions/${body.suppression.id}`)).status).toBe(404);
      expect((await api().get('/v1/suppressions/not-a-uuid')).status).toBe(404);
      const sent = await api().post('/v1/send', {
        channel: 'email',
        to: 'shared@example.com',
        subject: 's',
        body: 'b',
      });
      expect(sent.body.job_ids).toHaveLength(1);
    });

    it('pages with a cursor, newest first', async () => {
      for (let i = 0; i < 5; i++) await api().post('/v1/suppressions', { email: `p${i}@example.com` });
      const first = await api().get('/v1/suppressions?limit=2');
      expect(first.body.data).toHaveLength(2);
      expect(first.body.data[0].address).toBe('p4@example.com');
      const seen = [...first.body.data];
      let cursor = first.body.next_cursor;
      while (cursor) {
        const page = await api().get(`/v1/suppressions?limit=2&cursor=${cursor}`);
        seen.push(...page.body.data);
        cursor = page.body.next_cursor;
      }
      expect(seen.map((s) => s.address)).toEqual(['p4', 'p3', 'p2', 'p1', 'p0'].map((p) => `${p}@example.com`));
      expect((await api().get('/v1/suppressions?cursor=bogus')).status).toBe(400);
    });
  });

  describe('operator routes (/v1/admin/suppressions)', () => {
    it('lists active suppressions masked for the read-only key, adds and releases with the admin key', async () => {
      await api().post('/v1/suppressions', { email: 'jane.doe@example.com' });
      await api(other.key).post('/v1/suppressions', { channel: 'sms', address: '+33699999999' });
      const all = await t.http.get('/v1/admin/suppressions').set('X-Api-Key', READONLY_KEY);
      expect(all.status).toBe(200);
      expect(all.body.count).toBe(2);
      const mine = await t.http.get(`/v1/admin/suppressions?project_id=${project.id}`).set('X-Api-Key', READONLY_KEY);
      expect(mine.body.suppressions).toEqual([
        expect.objectContaining({
          project_id: project.id,
          channel: 'email',
          address: 'j***@example.com',
          email: 'j***@example.com',
        }),
      ]);
      expect(JSON.stringify(all.body)).not.toMatch(/jane\.doe|99999999/);

      const denied = await t.http
        .post('/v1/admin/suppressions')
        .set('X-Api-Key', READONLY_KEY)
        .send({ project_id: project.id, email: 'x@example.com' });
      expect(denied.status).toBe(403);
      const unknown = await t.http
        .post('/v1/admin/suppressions')
        .set('X-Api-Key', ADMIN_KEY)
        .send({ project_id: 'nope', email: 'x@example.com' });
      expect(unknown.status).toBe(422);
      const added = await t.http
        .post('/v1/admin/suppressions')
        .set('X-Api-Key', ADMIN_KEY)
        .send({ project_id: project.id, email: 'ops@example.com', detail: 'legal hold' });
      expect(added.status).toBe(200);
      expect(added.body).toMatchObject({
        success: true,
        created: true,
        suppression: {
          address: 'o***@example.com',
          reason: 'manual',
          source: 'admin',
          detail: 'legal hold (by admin)',
        },
      });

      const released = await t.http
        .delete(`/v1/admin/suppressions/${added.body.suppression.id}`)
        .set('X-Api-Key', ADMIN_KEY);
      expect(released.body).toEqual({ id: added.body.suppression.id, released: true });
      expect(
        (await t.http.delete(`/v1/admin/suppressions/${added.body.suppression.id}`).set('X-Api-Key', ADMIN_KEY)).status,
      ).toBe(404);
      const audit = await t.db.sql(`SELECT action, actor, project_id FROM audit_log WHERE resource = $1 ORDER BY id`, [
        added.body.suppression.id,
      ]);
      expect(audit).toEqual([
        { action: 'suppression.created', actor: 'admin', project_id: project.id },
        { action: 'suppression.released', actor: 'admin', project_id: project.id },
      ]);
    });
  });

  describe('enforcement at enqueue', () => {
    it('/v1/send skips a suppressed address (any letter case) and queues the other channels', async () => {
      await t.db.sql(
        `INSERT INTO subscribers (project_id, id, email, phone) VALUES ($1, 'u1', 'Jane@Example.com', '+33600000001') ON CONFLICT DO NOTHING`,
        [project.id],
      );
      await api().post('/v1/suppressions', { email: 'JANE@example.com' });
      const res = await api().post('/v1/send', {
        channels: ['email', 'sms'],
        subscriber_id: 'u1',
        subject: 'Hi',
        body: 'Hello',
      });
      expect(res.status).toBe(200);
      expect(res.body.channels).toEqual(['sms']);
      expect(res.body.skipped).toEqual([
        { channel: 'email', reason: 'recipient is suppressed on email (manual, scope all)' },
      ]);
    });

    it('a marketing suppression skips marketing messages only', async () => {
      await api().post('/v1/suppressions', { channel: 'sms', address: '+33600000002', scope: 'marketing' });
      const bulk = await api().post('/v1/send', {
        channel: 'sms',
        to: '+33600000002',
        body: 'sale!',
        priority: 'bulk',
      });
      expect(bulk.body.job_ids).toEqual([]);
      expect(bulk.body.skipped[0].reason).toMatch(/suppressed on sms \(unsubscribe, scope marketing\)/);
      const campaign = await api().post('/v1/send', {
        channel: 'sms',
        to: '+33600000002',
        body: 'sale!',
        tags: [{ name: 'category', value: 'newsletter' }],
      });
      expect(campaign.body.job_ids).toEqual([]);
      const receipt = await api().post('/v1/send', { channel: 'sms', to: '+33600000002', body: 'your code is 123' });
      expect(receipt.body.job_ids).toHaveLength(1);
    });

    it('/v1/batch counts suppressed recipients as skipped and queues the rest', async () => {
      await t.db.sql(
        `INSERT INTO subscribers (project_id, id, phone) VALUES ($1, 'b1', '+33610000001'), ($1, 'b2', '+33610000002'), ($1, 'b3', '+33610000003') ON CONFLICT DO NOTHING`,
        [project.id],
      );
      await api().post('/v1/suppressions', { channel: 'sms', address: '+33610000002' });
      const res = await api().post('/v1/batch', { channel: 'sms', subscribers: ['b1', 'b2', 'b3'], body: 'news' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ jobs_created: 2, jobs_skipped: 1, jobs_without_address: 0 });
      const recipients = await t.db.sql(`SELECT recipient FROM jobs WHERE project_id = $1 ORDER BY recipient`, [
        project.id,
      ]);
      expect(recipients.map((r) => r.recipient)).toEqual(['+33610000001', '+33610000003']);
    });
  });

  describe('enforcement in the worker', () => {
    it('a job queued before its address was suppressed fails as suppressed without a provider call', async () => {
      const res = await api().post('/v1/send', { channel: 'sms', to: '+33600000010', body: 'hi' });
      await api().post('/v1/suppressions', { channel: 'sms', address: '+33600000010' });
      await t.worker.drainOnce();
      const row = await job(res.body.job_ids[0]);
      expect(row.status).toBe('failed');
      expect(row.error).toMatch(/^suppressed: sms address is on the suppression list \(manual, scope all/);
      expect(sms.messages).toEqual([]);
    });

    it('transactional messages still honour suppressions; marketing scope spares them', async () => {
      const a = await api().post('/v1/send', { channel: 'email', to: 'tx@example.com', subject: 's', body: 'b' });
      const b = await api().post('/v1/send', { channel: 'email', to: 'mk2@example.com', subject: 's', body: 'b' });
      const c = await api().post('/v1/send', {
        channel: 'email',
        to: 'mk2@example.com',
        subject: 's',
        body: 'b',
        priority: 'bulk',
      });
      await api().post('/v1/suppressions', { email: 'tx@example.com' });
      await api().post('/v1/suppressions', { email: 'mk2@example.com', scope: 'marketing' });
      await t.worker.drainOnce();
      expect((await job(a.body.job_ids[0])).status).toBe('failed');
      expect((await job(b.body.job_ids[0])).status).toBe('sent');
      expect((await job(c.body.job_ids[0])).status).toBe('failed');
      expect(email.messages.map((m) => m.jobId)).toEqual([b.body.job_ids[0]]);
    });

    it('when the batch prefetch fails, each job is checked on its own and suppressions still apply', async () => {
      const repo = t.notifyd.app.get(SuppressionsRepository);
      const ids = [];
      for (const n of ['+33600000021', '+33600000022', '+33600000023'])
        ids.push((await api().post('/v1/send', { channel: 'sms', to: n, body: 'x' })).body.job_ids[0]);
      await api().post('/v1/suppressions', { channel: 'sms', address: '+33600000022' });
      const real = repo.activeFor.bind(repo);
      const calls: number[] = [];
      repo.activeFor = async (keys) => {
        calls.push(keys.length);
        if (calls.length === 1) throw new Error('connection reset');
        return real(keys);
      };
      try {
        await t.worker.drainOnce();
      } finally {
        repo.activeFor = real;
      }
      expect(calls).toEqual([3, 1, 1, 1]);
      expect((await job(ids[1])).status).toBe('failed');
      expect((await job(ids[0])).status).toBe('sent');
      expect((await job(ids[2])).status).toBe('sent');
      expect(sms.messages.map((m) => m.recipient).sort()).toEqual(['+33600000021', '+33600000023']);
    });

    it('when the probe of which projects have suppressions fails, each job is checked on its own and suppressions still apply', async () => {
      const repo = t.notifyd.app.get(SuppressionsRepository);
      const ids = [];
      for (const n of ['+33600000041', '+33600000042'])
        ids.push((await api().post('/v1/send', { channel: 'sms', to: n, body: 'x' })).body.job_ids[0]);
      await api().post('/v1/suppressions', { channel: 'sms', address: '+33600000042' });
      const real = repo.projectsWithActive.bind(repo);
      let probes = 0;
      repo.projectsWithActive = async (projectIds) => {
        if (++probes === 1) throw new Error('connection reset');
        return real(projectIds);
      };
      try {
        await t.worker.drainOnce();
      } finally {
        repo.projectsWithActive = real;
      }
      // The batch probe failed; the per-job lookups (one key each) need no probe.
      expect(probes).toBe(1);
      expect((await job(ids[1])).status).toBe('failed');
      expect((await job(ids[0])).status).toBe('sent');
    });

    it('when no lookup works at all, jobs go back to the queue unsent with their attempt given back', async () => {
      const repo = t.notifyd.app.get(SuppressionsRepository);
      const id = (await api().post('/v1/send', { channel: 'sms', to: '+33600000031', body: 'x' })).body.job_ids[0];
      // Every suppression read fails: the question whether the project has any, and the lookup.
      const real = { activeFor: repo.activeFor.bind(repo), projectsWithActive: repo.projectsWithActive.bind(repo) };
      const unreachable = async (): Promise<never> => {
        throw new Error('database unreachable');
      };
      repo.activeFor = unreachable;
      repo.projectsWithActive = unreachable;
      try {
        await t.worker.drainOnce();
      } finally {
        Object.assign(repo, real);
      }
      const row = await job(id);
      expect(row).toMatchObject({ status: 'pending', attempts: 0 });
      expect(row.error).toMatch(/suppression list unreadable/);
      expect(new Date(row.run_at).getTime()).toBeGreaterThan(Date.now());
      expect(sms.messages).toEqual([]);
    });
  });

  describe('provider evidence', () => {
    it('a hard bounce (permanent, deadRecipient) suppresses the email address for every later send', async () => {
      email.bounce.add('gone@example.com');
      const res = await api().post('/v1/send', { channel: 'email', to: 'Gone@Example.com', subject: 's', body: 'b' });
      await t.worker.drainOnce();
      // A hard bounce in the provider's answer ends the job bounced (job.bounced), not failed.
      expect((await job(res.body.job_ids[0])).status).toBe('bounced');
      const [s] = (await api().get('/v1/suppressions')).body.data;
      expect(s).toMatchObject({
        channel: 'email',
        address: 'gone@example.com',
        reason: 'bounce',
        scope: 'all',
        source: 'worker',
        source_job_id: res.body.job_ids[0],
      });
      expect(s.evidence).toMatchObject({ provider: 'recording-email', dead_recipient: true });
      const later = await api().post('/v1/send', { channel: 'email', to: 'gone@example.com', subject: 's', body: 'b' });
      expect(later.body.skipped[0].reason).toMatch(/suppressed on email \(bounce/);
    });

    it('Twilio 21610 (STOP) suppresses the number; a plain permanent error does not', async () => {
      sms.script = (m) =>
        m.recipient === '+33600000041'
          ? {
              ok: false,
              error: ProviderError.permanent('Twilio 21610: Attempt to send to unsubscribed recipient', {
                providerCode: '21610',
              }),
            }
          : { ok: false, error: ProviderError.permanent('HTTP 400: message body too long') };
      await api().post('/v1/send', { channel: 'sms', to: '+33600000041', body: 'x' });
      await api().post('/v1/send', { channel: 'sms', to: '+33600000042', body: 'x' });
      await t.worker.drainOnce();
      const list = (await api().get('/v1/suppressions')).body.data;
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({
        channel: 'sms',
        address: '+33600000041',
        reason: 'stop',
        scope: 'all',
        evidence: { provider_code: '21610' },
      });
      const audit = await t.db.sql(`SELECT actor FROM audit_log WHERE resource = $1`, [list[0].id]);
      expect(audit).toEqual([{ actor: 'worker' }]);
    });
  });
});
