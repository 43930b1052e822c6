import { PreferencesRepository } from '../src/governance/preferences/preferences.repository.js';
import { SuppressionsRepository } from '../src/governance/suppressions/suppressions.repository.js';
import { SubscribersRepository } from '../src/subscribers/subscribers.repository.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The lookups behind enqueue and the worker's prefetch have a one-project statement (the
 * project sent once) beside the general one (a project per key). Both must find exactly the
 * same rows: a key of another project must never match, whichever statement ran.
 */
describe('enqueue lookups: one project and several projects give the same answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await t.createProject('north');
    await t.createProject('south');
    await t.db.sql(`
      INSERT INTO subscribers (project_id, id, email)
      SELECT p, 'u' || g, 'u' || g || '@' || p || '.example' FROM unnest(ARRAY['north','south']) p, generate_series(1, 40) g`);
    // Opt-outs for u1–u10 in north only; suppressions of u1–u5's north address in north only.
    await t.db.sql(`
      INSERT INTO subscriber_preferences (project_id, subscriber_id, channel, scope_kind, scope, enabled)
      SELECT 'north', 'u' || g, 'email', 'all', '', false FROM generate_series(1, 10) g`);
    await t.db.sql(`
      INSERT INTO suppressions (project_id, channel, address, reason, scope, source)
      SELECT 'north', 'email', 'u' || g || '@north.example', 'bounce', 'all', 'manual' FROM generate_series(1, 5) g`);
    // A released suppression never counts.
    await t.db.sql(`
      INSERT INTO suppressions (project_id, channel, address, reason, scope, source, released_at)
      VALUES ('north', 'email', 'u6@north.example', 'bounce', 'all', 'manual', now())`);
  });
  afterAll(() => t.close());

  const ids = (n: number) => Array.from({ length: n }, (_, i) => `u${i + 1}`);

  it('preferences: only the project’s own subscribers’ rows, alone or mixed with another project', async () => {
    const repo = t.notifyd.app.get(PreferencesRepository);
    const north = await repo.forSubscribers(ids(20).map((subscriberId) => ({ projectId: 'north', subscriberId })));
    expect(north.map((r) => `${r.projectId}/${r.subscriberId}`).sort()).toEqual(ids(10).map((id) => `north/${id}`).sort());
    expect(await repo.forSubscribers(ids(20).map((subscriberId) => ({ projectId: 'south', subscriberId })))).toEqual([]);
    const mixed = await repo.forSubscribers([
      ...ids(20).map((subscriberId) => ({ projectId: 'south', subscriberId })),
      ...ids(3).map((subscriberId) => ({ projectId: 'north', subscriberId })),
    ]);
    expect(mixed.map((r) => `${r.projectId}/${r.subscriberId}`).sort()).toEqual(['north/u1', 'north/u2', 'north/u3']);
  });

  it('suppressions: only active ones of the project, alone or mixed with another project', async () => {
    const repo = t.notifyd.app.get(SuppressionsRepository);
    const northKeys = ids(8).map((id) => ({ projectId: 'north', channel: 'email' as const, address: `${id}@north.example` }));
    const north = await repo.activeFor(northKeys);
    expect(north.map((r) => r.address).sort()).toEqual(ids(5).map((id) => `${id}@north.example`).sort());
    // The same addresses asked for south: suppressed in north only.
    expect(await repo.activeFor(northKeys.map((k) => ({ ...k, projectId: 'south' })))).toEqual([]);
    const mixed = await repo.activeFor([...northKeys.slice(0, 2), ...northKeys.slice(2).map((k) => ({ ...k, projectId: 'south' }))]);
    expect(mixed.map((r) => `${r.projectId}/${r.address}`).sort()).toEqual(['north/u1@north.example', 'north/u2@north.example']);
  });

  it('addresses: each id once, only the project’s own, unknown ids absent', async () => {
    const rows = await t.notifyd.app.get(SubscribersRepository).findAddresses('south', ['u1', 'u2', 'nobody', 'u40']);
    expect(rows.map((r) => `${r.id} ${r.email}`).sort()).toEqual(['u1 u1@south.example', 'u2 u2@south.example', 'u40 u40@south.example']);
  });
});
