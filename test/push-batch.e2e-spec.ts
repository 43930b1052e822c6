import { PushTokensRepository } from '../src/push-tokens/push-tokens.repository.js';
import { FcmFake } from './fakes/fcm-fake.js';
import { useProviderApp } from './helpers/provider-app.js';

/**
 * Push jobs are sent in batches: one connector call takes a claimed batch's push jobs, reads
 * the devices of all their subscribers in one query, fans each job out to its own
 * subscriber's devices and deletes the dead ones, with every job's outcome its own.
 */
describe('push: a batch of jobs for many subscribers', () => {
  const fake = new FcmFake();
  const app = useProviderApp({
    fakes: [fake],
    env: () => ({
      PUSH_PROVIDER: 'native',
      FCM_SERVICE_ACCOUNT_JSON: JSON.stringify(fake.serviceAccount),
      FCM_API_BASE: fake.url,
      // No stall here: a long timeout only keeps a cold first call on a loaded CI machine from timing out.
      OUTBOUND_TIMEOUT_MS: '10000',
    }),
  });
  let b: { id: string; key: string };
  let seq = 0;
  // A second project: jobs of one call may belong to several.
  beforeAll(async () => {
    b = await app.t.createProject();
  });

  /** A subscriber with FCM devices whose tokens start with the fake's scripts ('ok', 'unregistered'…). */
  const subscriber = async (project: { key: string }, id: string, ...scripts: string[]) => {
    expect((await app.t.http.post('/v1/subscribers').set('X-Api-Key', project.key).send({ id })).status).toBe(200);
    const tokens: string[] = [];
    for (const script of scripts) {
      const token = `${script}:APA91b${++seq}batch`;
      expect(
        (
          await app.t.http
            .post('/v1/push-tokens')
            .set('X-Api-Key', project.key)
            .send({ subscriber_id: id, platform: 'fcm', token })
        ).status,
      ).toBe(200);
      tokens.push(token);
    }
    return tokens;
  };
  const send = async (project: { key: string }, subscriberId: string) => {
    const res = await app.t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['push'], subscriber_id: subscriberId, body: `to ${subscriberId}` });
    expect(res.status).toBe(200);
    return res.body.job_ids[0] as string;
  };
  const jobs = async (ids: string[]) =>
    (await app.t.db.sql(
      `SELECT id, status, attempts, provider, provider_message_id, error FROM jobs WHERE id = ANY($1)`,
      [ids],
    )) as {
      id: string;
      status: string;
      attempts: number;
      provider: string | null;
      provider_message_id: string | null;
      error: string | null;
    }[];
  /** Counts the device lookups (the real query still runs). */
  const countLookups = () => {
    const repository = app.t.notifyd.app.get(PushTokensRepository);
    const real = repository.forSubscribers.bind(repository);
    const calls: number[] = [];
    repository.forSubscribers = (keys) => {
      calls.push(keys.length);
      return real(keys);
    };
    return { calls, restore: () => (repository.forSubscribers = real) };
  };

  it('10 jobs for 6 subscribers of two projects: one device lookup, each job fanned out to its own subscriber, dead devices deleted', async () => {
    const [one] = await subscriber(app.project, 'one', 'ok');
    const two = await subscriber(app.project, 'two', 'ok', 'ok');
    const [halfOk, halfDead] = await subscriber(app.project, 'half', 'ok', 'unregistered');
    const [gone] = await subscriber(app.project, 'gone', 'unregistered');
    await subscriber(app.project, 'none');
    // The same subscriber id in another project: its own device, never the first project's.
    const [otherOne] = await subscriber(b, 'one', 'ok');

    const plan: [project: { key: string }, subscriber: string][] = [
      [app.project, 'one'],
      [app.project, 'two'],
      [app.project, 'half'],
      [b, 'one'],
      [app.project, 'one'],
      [app.project, 'gone'],
      [app.project, 'none'],
      [app.project, 'two'],
      [b, 'one'],
      [app.project, 'one'],
    ];
    const ids: string[] = [];
    for (const [project, id] of plan) ids.push(await send(project, id));
    fake.requests.length = 0;

    const lookups = countLookups();
    try {
      expect(await app.t.worker.drainOnce()).toBe(10);
    } finally {
      lookups.restore();
    }
    expect(lookups.calls).toEqual([6]);

    // Every device got exactly the pushes of its own subscriber's jobs.
    const pushes = new Map<string, number>();
    for (const r of fake.sends) {
      const token = (r.body as { message: { token: string } }).message.token;
      pushes.set(token, (pushes.get(token) ?? 0) + 1);
    }
    expect(Object.fromEntries(pushes)).toEqual({
      [one]: 3,
      [two[0]]: 2,
      [two[1]]: 2,
      [halfOk]: 1,
      [halfDead]: 1,
      [gone]: 1,
      [otherOne]: 2,
    });

    const byId = new Map((await jobs(ids)).map((j) => [j.id, j]));
    const outcome = (i: number) => {
      const j = byId.get(ids[i])!;
      return [
        plan[i][1],
        j.status,
        j.attempts,
        j.provider,
        (j.provider_message_id ?? '').split(' ').filter(Boolean).length,
      ];
    };
    expect(plan.map((_, i) => outcome(i))).toEqual([
      ['one', 'sent', 1, 'native', 1],
      ['two', 'sent', 1, 'native', 2],
      ['half', 'sent', 1, 'native', 1],
      ['one', 'sent', 1, 'native', 1],
      ['one', 'sent', 1, 'native', 1],
      ['gone', 'failed', 1, 'native', 0],
      ['none', 'sent', 1, 'skipped', 0],
      ['two', 'sent', 1, 'native', 2],
      ['one', 'sent', 1, 'native', 1],
      ['one', 'sent', 1, 'native', 1],
    ]);
    expect(byId.get(ids[5])!.error).toMatch(/^no device accepted the push: fcm: FCM HTTP 404 UNREGISTERED/);

    // Dead devices are gone, every other device is kept (another project's included).
    const left = await app.t.db.sql(
      `SELECT project_id, subscriber_id, token FROM push_tokens ORDER BY project_id, subscriber_id, token`,
    );
    expect(left).toEqual(
      [
        { project_id: app.project.id, subscriber_id: 'half', token: halfOk },
        { project_id: app.project.id, subscriber_id: 'one', token: one },
        ...two.map((token) => ({ project_id: app.project.id, subscriber_id: 'two', token })),
        { project_id: b.id, subscriber_id: 'one', token: otherOne },
      ].sort((x, y) =>
        `${x.project_id} ${x.subscriber_id} ${x.token}`.localeCompare(`${y.project_id} ${y.subscriber_id} ${y.token}`),
      ),
    );
  });

  it('a batch whose jobs are all refused is not sent again item by item: each result is already its job’s own', async () => {
    await subscriber(app.project, 'bad-1', 'invalid');
    await subscriber(app.project, 'bad-2', 'invalid');
    const ids = [await send(app.project, 'bad-1'), await send(app.project, 'bad-2')];
    fake.requests.length = 0;
    expect(await app.t.worker.drainOnce()).toBe(2);
    expect(fake.sends).toHaveLength(2);
    expect((await jobs(ids)).map((j) => [j.status, j.attempts])).toEqual([
      ['failed', 1],
      ['failed', 1],
    ]);
  });
});

/**
 * The dispatcher gives one call WORKER_SEND_TIMEOUT_MS and fails every job of a call that
 * overruns it, delivered or not. A batch of push jobs behind a stalling push service must end
 * in time: jobs it cannot start early enough are left unattempted (retried), never pushed and
 * then reported failed.
 */
describe('push: a batch behind a stalling push service', () => {
  const fake = new FcmFake();
  const app = useProviderApp({
    fakes: [fake],
    env: () => ({
      PUSH_PROVIDER: 'native',
      FCM_SERVICE_ACCOUNT_JSON: JSON.stringify(fake.serviceAccount),
      FCM_API_BASE: fake.url,
      // One job at a time; a stalled request ends after 3 s; the call may take 7.5 s, less a
      // 0.75 s margin. Three stalls in a row would overrun it, so after the first job only jobs
      // started in the first 3.75 s may run. In
      // seconds, not hundreds of ms: the second stall must end (at about 6 s) well before the
      // call's 7.5 s even when a loaded machine is late to abort it.
      WORKER_CONCURRENCY: '1',
      OUTBOUND_TIMEOUT_MS: '3000',
      WORKER_SEND_TIMEOUT_MS: '7500',
    }),
  });

  it('jobs it cannot start in time are not attempted; every job pushed is recorded as such', async () => {
    // One send first, so that the quick job below is quick: the access token is fetched and the
    // connection made here. A slow cold first call would make the stalls start late and the call
    // end within a hair of its limit.
    expect(
      (await app.t.http.post('/v1/subscribers').set('X-Api-Key', app.project.key).send({ id: 'warm' })).status,
    ).toBe(200);
    await app.t.http
      .post('/v1/push-tokens')
      .set('X-Api-Key', app.project.key)
      .send({ subscriber_id: 'warm', platform: 'fcm', token: 'ok:APA91bwarm' })
      .expect(200);
    const warm = await app.send({ channels: ['push'], subscriber_id: 'warm', body: 'x' });
    expect(await app.t.worker.drainOnce()).toBe(1);
    expect((await app.job(warm)).status).toBe('sent');

    const ids: string[] = [];
    for (const [i, script] of ['ok', 'stall', 'stall', 'stall'].entries()) {
      const id = `slow-${i}`;
      expect((await app.t.http.post('/v1/subscribers').set('X-Api-Key', app.project.key).send({ id })).status).toBe(
        200,
      );
      const token = `${script}:APA91b${i}slow`;
      expect(
        (
          await app.t.http
            .post('/v1/push-tokens')
            .set('X-Api-Key', app.project.key)
            .send({ subscriber_id: id, platform: 'fcm', token })
        ).status,
      ).toBe(200);
      const res = await app.t.http
        .post('/v1/send')
        .set('X-Api-Key', app.project.key)
        .send({ channels: ['push'], subscriber_id: id, body: 'x' });
      ids.push(res.body.job_ids[0]);
    }
    fake.requests.length = 0;
    expect(await app.t.worker.drainOnce()).toBe(4);

    const rows = (await app.t.db.sql(`SELECT id, status, error FROM jobs WHERE id = ANY($1)`, [ids])) as {
      id: string;
      status: string;
      error: string | null;
    }[];
    const pushed = new Set(
      fake.sends.map((r) => (r.body as { message: { data: { notifyd_job_id: string } } }).message.data.notifyd_job_id),
    );
    // The call ended in time: no job carries the dispatcher's timeout.
    expect(rows.filter((r) => /WORKER_SEND_TIMEOUT_MS \(/.test(r.error ?? ''))).toEqual([]);
    // At most the stalls started in the first 3.75 s ran (one, or two if the quick job went first… never three).
    expect(fake.sends.length).toBeLessThan(4);
    for (const r of rows) {
      if (!pushed.has(r.id))
        expect([r.id, r.status, r.error]).toEqual([r.id, 'retry', expect.stringMatching(/^not attempted: /)]);
    }
    const okJob = rows.find((r) => r.id === ids[0])!;
    expect(okJob.status === 'sent' || (!pushed.has(okJob.id) && okJob.status === 'retry')).toBe(true);
  });
});
