import { Db, type Sql } from '../src/database/db.js';
import { PreferencesRepository } from '../src/governance/preferences/preferences.repository.js';
import { PreferencesService } from '../src/governance/preferences/preferences.service.js';
import * as preferenceSql from '../src/governance/preferences/sql/preferences.sql.js';
import * as suppressionSql from '../src/governance/suppressions/sql/suppressions.sql.js';
import { SuppressionsRepository } from '../src/governance/suppressions/suppressions.repository.js';
import { SuppressionsService } from '../src/governance/suppressions/suppressions.service.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The lookups behind enqueue and the worker's prefetch have a one-project statement (the
 * project sent once) beside the general one (a project per key). For the same keys both must
 * find the same rows, and a key of another project must never match; the repositories must
 * pick the one-project statement only when every key is of one project. The services ask first
 * which projects hold any rule at all and look up only those projects' keys.
 */
describe('enqueue lookups: the one-project and the general statements', () => {
  let t: TestApp;
  let db: Db;
  /** The SQL text of every statement the repositories ran since the last reset. */
  let ran: Sql[] = [];
  beforeAll(async () => {
    t = await startTestApp();
    db = t.notifyd.app.get(Db);
    // Record which lookup statement the repositories send (the app's other work shares this Db).
    const lookups = new Set<Sql>([
      preferenceSql.LIST_FOR_SUBSCRIBERS,
      preferenceSql.LIST_FOR_PROJECT_SUBSCRIBERS,
      preferenceSql.PROJECTS_WITH_PREFERENCES,
      suppressionSql.ACTIVE_FOR_KEYS,
      suppressionSql.ACTIVE_FOR_PROJECT_KEYS,
      suppressionSql.PROJECTS_WITH_ACTIVE,
    ]);
    const rows = db.rows.bind(db);
    db.rows = ((sql: Sql, params?: unknown[], runner?: Parameters<Db['rows']>[2]) => {
      if (lookups.has(sql)) ran.push(sql);
      return rows(sql, params, runner);
    }) as Db['rows'];
    await t.createProject('north');
    await t.createProject('south');
    await t.createProject('west');
    await t.createProject('east');
    await t.db.sql(`
      INSERT INTO subscribers (project_id, id, email)
      SELECT p, 'u' || g, 'u' || g || '@' || p || '.example' FROM unnest(ARRAY['north','south','west','east']) p, generate_series(1, 40) g`);
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
    // west: only a released suppression, so nothing active. east: one of each, for u1.
    await t.db.sql(`
      INSERT INTO suppressions (project_id, channel, address, reason, scope, source, released_at)
      VALUES ('west', 'email', 'u1@west.example', 'bounce', 'all', 'manual', now())`);
    await t.db.sql(
      `INSERT INTO suppressions (project_id, channel, address, reason, scope, source) VALUES ('east', 'email', 'u1@east.example', 'bounce', 'all', 'manual')`,
    );
    await t.db.sql(
      `INSERT INTO subscriber_preferences (project_id, subscriber_id, channel, scope_kind, scope, enabled) VALUES ('east', 'u1', 'email', 'all', '', false)`,
    );
  });
  afterAll(() => t.close());
  beforeEach(() => (ran = []));

  const ids = (n: number) => Array.from({ length: n }, (_, i) => `u${i + 1}`);
  const sorted = <T>(rows: T[], key: (r: T) => string) => rows.map(key).sort();

  it('preferences: the same rows from both statements, only the project’s own', async () => {
    const subscribers = ids(20);
    const general = await db.rows<{ projectId: string; subscriberId: string }>(preferenceSql.LIST_FOR_SUBSCRIBERS, [
      subscribers.map(() => 'north'),
      subscribers,
    ]);
    const oneProject = await db.rows<{ projectId: string; subscriberId: string }>(
      preferenceSql.LIST_FOR_PROJECT_SUBSCRIBERS,
      ['north', subscribers],
    );
    const key = (r: { projectId: string; subscriberId: string }) => `${r.projectId}/${r.subscriberId}`;
    expect(sorted(oneProject, key)).toEqual(sorted(general, key));
    expect(sorted(oneProject, key)).toEqual(
      ids(10)
        .map((id) => `north/${id}`)
        .sort(),
    );
    expect(await db.rows(preferenceSql.LIST_FOR_PROJECT_SUBSCRIBERS, ['south', subscribers])).toEqual([]);
  });

  it('preferences: the repository asks the one-project statement only when every key is of one project', async () => {
    const repo = t.notifyd.app.get(PreferencesRepository);
    expect(await repo.forSubscribers(ids(20).map((subscriberId) => ({ projectId: 'south', subscriberId })))).toEqual(
      [],
    );
    const mixed = await repo.forSubscribers([
      ...ids(20).map((subscriberId) => ({ projectId: 'south', subscriberId })),
      ...ids(3).map((subscriberId) => ({ projectId: 'north', subscriberId })),
    ]);
    expect(sorted(mixed, (r) => `${r.projectId}/${r.subscriberId}`)).toEqual(['north/u1', 'north/u2', 'north/u3']);
    expect(ran).toEqual([preferenceSql.LIST_FOR_PROJECT_SUBSCRIBERS, preferenceSql.LIST_FOR_SUBSCRIBERS]);
  });

  it('suppressions: the same active rows from both statements (released ones neither), only the project’s own', async () => {
    const addresses = ids(8).map((id) => `${id}@north.example`);
    const general = await db.rows<{ address: string }>(suppressionSql.ACTIVE_FOR_KEYS, [
      addresses.map(() => 'north'),
      addresses.map(() => 'email'),
      addresses,
    ]);
    const oneProject = await db.rows<{ address: string }>(suppressionSql.ACTIVE_FOR_PROJECT_KEYS, [
      'north',
      addresses.map(() => 'email'),
      addresses,
    ]);
    expect(sorted(oneProject, (r) => r.address)).toEqual(sorted(general, (r) => r.address));
    expect(sorted(oneProject, (r) => r.address)).toEqual(
      ids(5)
        .map((id) => `${id}@north.example`)
        .sort(),
    );
    expect(
      await db.rows(suppressionSql.ACTIVE_FOR_PROJECT_KEYS, ['south', addresses.map(() => 'email'), addresses]),
    ).toEqual([]);
  });

  it('suppressions: the repository asks the one-project statement only when every key is of one project', async () => {
    const repo = t.notifyd.app.get(SuppressionsRepository);
    const northKeys = ids(8).map((id) => ({
      projectId: 'north',
      channel: 'email' as const,
      address: `${id}@north.example`,
    }));
    expect(await repo.activeFor(northKeys.map((k) => ({ ...k, projectId: 'south' })))).toEqual([]);
    const mixed = await repo.activeFor([
      ...northKeys.slice(0, 2),
      northKeys[5],
      ...northKeys.slice(2, 5).map((k) => ({ ...k, projectId: 'south' })),
    ]);
    expect(sorted(mixed, (r) => `${r.projectId}/${r.address}`)).toEqual([
      'north/u1@north.example',
      'north/u2@north.example',
    ]);
    expect(ran).toEqual([suppressionSql.ACTIVE_FOR_PROJECT_KEYS, suppressionSql.ACTIVE_FOR_KEYS]);
  });

  it('which projects hold any rule: only north, whatever else is asked (a released suppression is none)', async () => {
    const asked = ['south', 'north', 'west', 'nowhere'];
    expect(await t.notifyd.app.get(SuppressionsRepository).projectsWithActive(asked)).toEqual(new Set(['north']));
    expect(await t.notifyd.app.get(PreferencesRepository).projectsWithPreferences(asked)).toEqual(new Set(['north']));
    expect(await t.notifyd.app.get(SuppressionsRepository).projectsWithActive([...asked, 'east'])).toEqual(
      new Set(['north', 'east']),
    );
    expect(await t.notifyd.app.get(SuppressionsRepository).projectsWithActive([])).toEqual(new Set());
  });

  it('suppressions: a project with no active suppression is answered without sending its keys', async () => {
    const service = t.notifyd.app.get(SuppressionsService);
    const keys = (projectId: string) =>
      ids(8).map((id) => ({ projectId, channel: 'email' as const, address: `${id}@north.example` }));
    expect(await service.activeFor(keys('west'))).toEqual(new Map());
    expect(
      await service.activeForProject(
        'south',
        keys('south').map((k) => ({ channel: k.channel, recipient: k.address })),
      ),
    ).toEqual(new Map());
    expect(ran).toEqual([suppressionSql.PROJECTS_WITH_ACTIVE, suppressionSql.PROJECTS_WITH_ACTIVE]);

    // Mixed projects: only north's keys are looked up (so the one-project statement), and found.
    ran = [];
    const found = await service.activeFor([...keys('south'), ...keys('north'), ...keys('west')]);
    expect([...found.values()].map((r) => `${r.projectId}/${r.address}`).sort()).toEqual(
      ids(5)
        .map((id) => `north/${id}@north.example`)
        .sort(),
    );
    expect(ran).toEqual([suppressionSql.PROJECTS_WITH_ACTIVE, suppressionSql.ACTIVE_FOR_PROJECT_KEYS]);
    // The batch path's lookup still finds north's suppressions (normalising the case of the address).
    const batch = await service.activeForProject('north', [
      { channel: 'email', recipient: 'U2@North.example' },
      { channel: 'email', recipient: 'u9@north.example' },
    ]);
    expect([...batch.values()].map((r) => r.address)).toEqual(['u2@north.example']);

    // Two projects with suppressions among three: the general statement, with their keys only.
    ran = [];
    const eastKeys = ids(3).map((id) => ({
      projectId: 'east',
      channel: 'email' as const,
      address: `${id}@east.example`,
    }));
    const two = await service.activeFor([...keys('south'), ...keys('north').slice(0, 3), ...eastKeys]);
    expect([...two.values()].map((r) => `${r.projectId}/${r.address}`).sort()).toEqual([
      'east/u1@east.example',
      'north/u1@north.example',
      'north/u2@north.example',
      'north/u3@north.example',
    ]);
    expect(ran).toEqual([suppressionSql.PROJECTS_WITH_ACTIVE, suppressionSql.ACTIVE_FOR_KEYS]);

    // A single key is looked up directly: its lookup costs what the probe would.
    ran = [];
    expect(await service.activeFor(keys('west').slice(0, 1))).toEqual(new Map());
    expect(ran).toEqual([suppressionSql.ACTIVE_FOR_PROJECT_KEYS]);
  });

  it('preferences: a project where nobody has stored one is answered without sending its subscriber ids', async () => {
    const service = t.notifyd.app.get(PreferencesService);
    expect(await service.forProjectSubscribers('south', ids(20))).toEqual(new Map());
    expect(await service.forSubscribers(ids(20).map((subscriberId) => ({ projectId: 'west', subscriberId })))).toEqual(
      new Map(),
    );
    expect(ran).toEqual([preferenceSql.PROJECTS_WITH_PREFERENCES, preferenceSql.PROJECTS_WITH_PREFERENCES]);

    ran = [];
    const mixed = await service.forSubscribers([
      ...ids(20).map((subscriberId) => ({ projectId: 'south', subscriberId })),
      ...ids(12).map((subscriberId) => ({ projectId: 'north', subscriberId })),
    ]);
    expect([...mixed.keys()].map((k) => k.replace('\n', '/')).sort()).toEqual(
      ids(10)
        .map((id) => `north/${id}`)
        .sort(),
    );
    expect(ran).toEqual([preferenceSql.PROJECTS_WITH_PREFERENCES, preferenceSql.LIST_FOR_PROJECT_SUBSCRIBERS]);
    const oneProject = await service.forProjectSubscribers('north', ids(12));
    expect([...oneProject.keys()].sort()).toEqual(ids(10).sort());

    // Two projects with preferences among three: the general statement, with their keys only.
    ran = [];
    const two = await service.forSubscribers([
      ...ids(5).map((subscriberId) => ({ projectId: 'south', subscriberId })),
      ...ids(2).map((subscriberId) => ({ projectId: 'north', subscriberId })),
      ...ids(2).map((subscriberId) => ({ projectId: 'east', subscriberId })),
    ]);
    expect([...two.keys()].map((k) => k.replace('\n', '/')).sort()).toEqual(['east/u1', 'north/u1', 'north/u2']);
    expect(ran).toEqual([preferenceSql.PROJECTS_WITH_PREFERENCES, preferenceSql.LIST_FOR_SUBSCRIBERS]);
  });
});
