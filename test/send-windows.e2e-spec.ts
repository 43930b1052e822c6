import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Send windows through the API and the worker, with windows placed relative to the current
 * hour so that "open" and "closed" hold whenever the suite runs. The DST and overnight maths
 * are unit-tested in src/governance/send-windows/send-window.spec.ts.
 */
describe('send windows (quiet hours)', () => {
  let t: TestApp;
  let project: { id: string; key: string };

  const hh = (h: number) => `${String(((h % 24) + 24) % 24).padStart(2, '0')}:00`;
  // Fixed per test: the windows below stay open/closed if the hour turns during a test.
  let hour = 0;
  const utcHour = () => hour;
  /** The next instant (after now) at which a UTC clock shows hh:mm. */
  const nextUtc = (hour: number, minute = 0) => {
    const now = new Date();
    const at = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), ((hour % 24) + 24) % 24, minute);
    return new Date(at > now.getTime() ? at : at + 86_400_000).toISOString();
  };
  /** A window that opens two hours from now (closed now), in UTC. */
  const closedWindow = (extra: Record<string, unknown> = {}) => ({
    start: hh(utcHour() + 2),
    end: hh(utcHour() + 3),
    ...extra,
  });
  /** A window open for the next hour or so, in UTC. */
  const openWindow = (extra: Record<string, unknown> = {}) => ({
    start: hh(utcHour() - 1),
    end: hh(utcHour() + 2),
    ...extra,
  });

  const api = () => ({
    put: (body: unknown) =>
      t.http
        .put('/v1/send-window')
        .set('X-Api-Key', project.key)
        .send(body as object),
    send: (body: Record<string, unknown>) =>
      t.http
        .post('/v1/send')
        .set('X-Api-Key', project.key)
        .send({ channels: ['email'], body: 'hi', ...body }),
  });
  const job = async (id: string) => (await t.db.sql(`SELECT * FROM jobs WHERE id = $1`, [id]))[0];

  beforeAll(async () => {
    t = await startTestApp();
  });
  beforeEach(async () => {
    hour = new Date().getUTCHours();
    project = await t.createProject();
  });
  afterAll(() => t.close());

  it('stores a project window with defaults and rejects bad ones naming the field', async () => {
    expect((await t.http.get('/v1/send-window').set('X-Api-Key', project.key)).body).toEqual({ send_window: null });
    const set = await api().put({ start: '08:00', end: '21:00', tz: 'Europe/Paris' });
    expect(set.status).toBe(200);
    expect(set.body.send_window).toEqual({
      start: '08:00',
      end: '21:00',
      tz: 'Europe/Paris',
      days: [1, 2, 3, 4, 5, 6, 7],
      applies_to: 'marketing',
    });
    expect((await t.http.get('/v1/send-window').set('X-Api-Key', project.key)).body).toEqual(set.body);

    const badTz = await api().put({ start: '08:00', end: '21:00', tz: 'Europe/Atlantis' });
    expect(badTz.status).toBe(422);
    expect(badTz.body.message).toMatch(/send_window\.tz must be an IANA time zone/);
    const badTime = await api().put({ start: '8h', end: '21:00' });
    expect(badTime.status).toBe(422);
    expect(badTime.body.message).toMatch(/start must be a 24-hour time/);
    const badRequest = await api().send({ to: 'a@example.com', send_window: { start: '09:00', end: '09:00' } });
    expect(badRequest.status).toBe(422);
    expect(badRequest.body.message).toMatch(/send_window.start and send_window.end are equal/);

    expect((await t.http.delete('/v1/send-window').set('X-Api-Key', project.key)).body).toEqual({ send_window: null });
  });

  it('defers a marketing send to the next opening; normal-priority sends and send_window:false go now', async () => {
    await api().put(closedWindow());
    const bulk = await api().send({ to: 'a@example.com', priority: 'bulk' });
    expect(bulk.status).toBe(200);
    expect(bulk.body.scheduled_at).toBe(nextUtc(utcHour() + 2));
    const row = await job(bulk.body.job_ids[0]);
    expect(new Date(row.scheduled_at).toISOString()).toBe(nextUtc(utcHour() + 2));
    expect(new Date(row.run_at).getTime()).toBeGreaterThanOrEqual(Date.parse(nextUtc(utcHour() + 2)));

    const normal = await api().send({ to: 'b@example.com' });
    const campaign = await api().send({ to: 'c@example.com', tags: [{ name: 'category', value: 'newsletter' }] });
    const bypass = await api().send({ to: 'd@example.com', priority: 'bulk', send_window: false });
    expect(Date.parse(normal.body.scheduled_at)).toBeLessThanOrEqual(Date.now());
    expect(campaign.body.scheduled_at).toBe(nextUtc(utcHour() + 2));
    expect(Date.parse(bypass.body.scheduled_at)).toBeLessThanOrEqual(Date.now());

    await t.worker.drainOnce();
    expect((await job(bulk.body.job_ids[0])).status).toBe('pending');
    expect((await job(campaign.body.job_ids[0])).status).toBe('pending');
    expect((await job(normal.body.job_ids[0])).status).toBe('sent');
    expect((await job(bypass.body.job_ids[0])).status).toBe('sent');
  });

  it('applies_to all holds every job; a request window overrides the project window', async () => {
    await api().put(closedWindow({ applies_to: 'all' }));
    const normal = await api().send({ to: 'a@example.com' });
    expect(normal.body.scheduled_at).toBe(nextUtc(utcHour() + 2));
    const overridden = await api().send({ to: 'b@example.com', send_window: openWindow({ applies_to: 'all' }) });
    expect(Date.parse(overridden.body.scheduled_at)).toBeLessThanOrEqual(Date.now());
    expect((await job(overridden.body.job_ids[0])).payload.send_window).toMatchObject({ applies_to: 'all', tz: 'UTC' });
  });

  it('reads the window in each subscriber’s own time zone (send and batch)', async () => {
    // Open now in UTC; Kolkata (UTC+05:30, no DST) is 5h30 ahead, outside it.
    await api().put(openWindow({ applies_to: 'all' }));
    await t.http
      .post('/v1/subscribers')
      .set('X-Api-Key', project.key)
      .send({ id: 'in', email: 'in@example.com', timezone: 'Asia/Kolkata' })
      .expect(200);
    await t.http
      .post('/v1/subscribers')
      .set('X-Api-Key', project.key)
      .send({ id: 'utc', email: 'utc@example.com' })
      .expect(200);
    // Kolkata's window opens at local (h-1):00 = UTC (h-7):30.
    const expected = nextUtc(utcHour() - 7, 30);

    const one = await api().send({ subscriber_id: 'in' });
    expect(one.body.scheduled_at).toBe(expected);

    const batch = await t.http
      .post('/v1/batch')
      .set('X-Api-Key', project.key)
      .send({ channels: ['email'], subscribers: ['in', 'utc'], body: 'x' });
    expect(batch.body.jobs_created).toBe(2);
    const rows = await t.db.sql(
      `SELECT subscriber_id, scheduled_at FROM jobs WHERE project_id = $1 AND payload->>'body' = 'x' ORDER BY subscriber_id`,
      [project.id],
    );
    expect(new Date(rows[0].scheduled_at).toISOString()).toBe(expected);
    expect(new Date(rows[1].scheduled_at).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('the worker defers a due job that is outside its window (window changed since enqueue) without using an attempt, then sends it', async () => {
    await api().put(openWindow());
    const sent = await api().send({ to: 'a@example.com', priority: 'bulk' });
    const id = sent.body.job_ids[0];
    expect(Date.parse(sent.body.scheduled_at)).toBeLessThanOrEqual(Date.now());
    // The operator moves the window before the worker gets to the job.
    await api().put(closedWindow());
    await t.worker.drainOnce();
    const deferred = await job(id);
    expect(deferred).toMatchObject({ status: 'pending', attempts: 0, provider: null });
    expect(deferred.error).toMatch(/^outside send window \d\d:00–\d\d:00 \(UTC\); deferred to /);
    expect(new Date(deferred.run_at).toISOString()).toBe(nextUtc(utcHour() + 2));

    // Due again (as if the window had come): still closed → deferred again, never failed.
    await t.db.sql(`UPDATE jobs SET run_at = now() WHERE id = $1`, [id]);
    await t.worker.drainOnce();
    expect(await job(id)).toMatchObject({ status: 'pending', attempts: 0 });

    await api().put(openWindow());
    await t.db.sql(`UPDATE jobs SET run_at = now() WHERE id = $1`, [id]);
    await t.worker.drainOnce();
    expect(await job(id)).toMatchObject({ status: 'sent', attempts: 1, error: null });
  });

  it('the worker re-checks the request’s own window and the subscriber’s zone', async () => {
    await t.http
      .post('/v1/subscribers')
      .set('X-Api-Key', project.key)
      .send({ id: 'tk', email: 'tk@example.com' })
      .expect(200);
    const sent = await api().send({ subscriber_id: 'tk', send_window: openWindow({ applies_to: 'all' }) });
    const id = sent.body.job_ids[0];
    // The subscriber moves to Kolkata after enqueue: the window is now closed for them.
    await t.db.sql(`UPDATE subscribers SET timezone = 'Asia/Kolkata' WHERE project_id = $1 AND id = 'tk'`, [
      project.id,
    ]);
    await t.worker.drainOnce();
    const deferred = await job(id);
    expect(deferred.status).toBe('pending');
    expect(deferred.error).toMatch(/\(Asia\/Kolkata\)/);
    expect(new Date(deferred.run_at).toISOString()).toBe(nextUtc(utcHour() - 7, 30));
  });
});
