import { MAX_ENDPOINTS_PER_PROJECT } from '../src/webhooks/webhook-endpoints.service.js';
import { WebhookEvents } from '../src/webhooks/webhook-events.service.js';
import { ADMIN_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Bounds and scoping of webhook endpoints. Nothing here is delivered: no test connects anywhere
 * (the URL is a loopback literal, allowed for this app, and no delivery is ever claimed).
 */
describe('outbound webhooks: bounds and scoping', () => {
  let t: TestApp;
  let project: { id: string; key: string };
  let other: { id: string; key: string };
  const url = 'http://127.0.0.1:9/hook';

  beforeAll(async () => {
    t = await startTestApp({ env: { OUTBOUND_ALLOW_LOOPBACK: 'true' } });
    project = await t.createProject();
    other = await t.createProject();
  });
  afterAll(() => t?.close());

  const create = (key: string) =>
    t.http
      .post('/v1/webhooks')
      .set('X-Api-Key', key)
      .send({ url, events: ['subscriber.preference_changed'] });

  it(`a project has at most MAX_ENDPOINTS_PER_PROJECT endpoints, at every door`, async () => {
    const ids: string[] = [];
    for (let n = 0; n < MAX_ENDPOINTS_PER_PROJECT; n++) {
      const res = await create(project.key);
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const refused = await create(project.key);
    expect([refused.status, refused.body.error]).toEqual([422, 'too_many_webhooks']);
    expect(refused.body.message).toContain(`at most ${MAX_ENDPOINTS_PER_PROJECT} webhook endpoints`);
    const admin = await t.http
      .post('/v1/admin/webhooks')
      .set('X-Api-Key', ADMIN_KEY)
      .send({ project_id: project.id, url, events: ['job.sent'] });
    expect([admin.status, admin.body.error]).toEqual([422, 'too_many_webhooks']);
    const [{ count }] = await t.db.sql(`SELECT count(*)::int AS count FROM webhook_endpoints WHERE project_id = $1`, [
      project.id,
    ]);
    expect(count).toBe(MAX_ENDPOINTS_PER_PROJECT);
    // One event fans out to at most that many deliveries.
    expect(
      await t.notifyd.app.get(WebhookEvents).emit(project.id, 'subscriber.preference_changed', { subscriber_id: 'u1' }),
    ).toBe(MAX_ENDPOINTS_PER_PROJECT);

    // Another project is not counted against; a deleted endpoint frees its place.
    expect((await create(other.key)).status).toBe(201);
    expect((await t.http.delete(`/v1/webhooks/${ids[0]}`).set('X-Api-Key', project.key)).status).toBe(200);
    expect((await create(project.key)).status).toBe(201);
  });

  it('another project cannot read or redeliver a delivery, even through an endpoint of its own', async () => {
    const owner = await t.createProject();
    const endpoint = (await create(owner.key)).body as { id: string };
    await t.notifyd.app.get(WebhookEvents).emit(owner.id, 'subscriber.preference_changed', { subscriber_id: 'u1' });
    const [delivery] = await t.db.sql(`SELECT id FROM webhook_deliveries WHERE endpoint_id = $1`, [endpoint.id]);
    await t.db.sql(`UPDATE webhook_deliveries SET status = 'failed' WHERE id = $1`, [delivery.id]);
    const mine = (await create(other.key)).body as { id: string };
    for (const endpointId of [endpoint.id, mine.id]) {
      const path = `/v1/webhooks/${endpointId}/deliveries/${delivery.id}`;
      for (const res of [
        await t.http.get(path).set('X-Api-Key', other.key),
        await t.http.post(`${path}/redeliver`).set('X-Api-Key', other.key).send({}),
      ])
        expect([endpointId, res.status, res.body.error]).toEqual([endpointId, 404, 'not_found']);
    }
    const [after] = await t.db.sql(`SELECT status FROM webhook_deliveries WHERE id = $1`, [delivery.id]);
    expect(after.status).toBe('failed');
  });
});
