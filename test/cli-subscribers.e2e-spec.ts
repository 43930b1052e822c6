import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, notifyd } from './helpers/notifyd-cli.js';
import { ADMIN_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * `notifyd subscribers import` against a running app. BODY_LIMIT_BYTES is small (64 KiB) so
 * that a batch of 1000 exceeds it and the CLI has to split it.
 */
describe('notifyd subscribers import', () => {
  let t: TestApp;
  let project: { id: string; key: string };
  let dir: string;
  let env: Record<string, string>;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const row = async (id: string) =>
    (
      await t.db.sql(
        `SELECT email, phone, first_name, last_name, locale, timezone, data FROM subscribers WHERE project_id = $1 AND id = $2`,
        [project.id, id],
      )
    )[0];
  const count = async (prefix: string) =>
    (
      await t.db.sql(`SELECT count(*)::int AS n FROM subscribers WHERE project_id = $1 AND id LIKE $2`, [
        project.id,
        `${prefix}%`,
      ])
    )[0].n;

  beforeAll(async () => {
    if (!existsSync(cli)) throw new Error('dist/ is missing: run `npm run build` first');
    t = await startTestApp({ env: { BODY_LIMIT_BYTES: String(64 * 1024) } });
    project = await t.createProject('importer');
    dir = mkdtempSync(join(tmpdir(), 'notifyd-import-'));
    env = { NOTIFYD_URL: t.url, NOTIFYD_PROJECT_KEY: project.key };
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('imports NDJSON in batches, reports every bad line by number, and exits 65 when any was refused', async () => {
    const lines = Array.from({ length: 2500 }, (_, i) =>
      JSON.stringify({ id: `nd_${i}`, email: `nd${i}@example.com`, locale: 'fr-fr', data: { n: i } }),
    );
    lines[9] = '{"id": "nd_9", "email": ';
    lines[99] = '["not", "an", "object"]';
    lines[199] = JSON.stringify({ id: 'nd_199', email: 'not-an-email' });
    lines[1499] = JSON.stringify({ id: 'nd_0', first_name: 'Zero' });
    lines.splice(400, 0, '');
    const result = await notifyd(
      ['subscribers', 'import', file('audience.ndjson', `${lines.join('\n')}\n`), '--json'],
      env,
    );
    expect(result.code).toBe(65);
    expect(result.stderr).toBe('');
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({
      dry_run: false,
      lines: 2500,
      created: 2496,
      updated: 1,
      duplicates: 0,
      failed: 3,
      stopped: null,
    });
    expect(summary.errors).toEqual([
      { line: 10, id: null, field: null, message: expect.stringMatching(/^not valid JSON/) },
      { line: 100, id: null, field: null, message: expect.stringMatching(/^must be a JSON object/) },
      { line: 200, id: 'nd_199', field: 'email', message: expect.stringMatching(/^email must be an email address/) },
    ]);
    expect(await count('nd_')).toBe(2496);
    expect(await row('nd_0')).toMatchObject({
      email: 'nd0@example.com',
      first_name: 'Zero',
      locale: 'fr-FR',
      data: { n: 0 },
    });
    expect(await row('nd_2499')).toMatchObject({ email: 'nd2499@example.com', data: { n: 2499 } });
  });

  it('imports CSV with quoted fields and data.<key> columns; prints a summary and the bad lines', async () => {
    const csv = [
      'id,email,phone,first_name,last_name,timezone,data.plan,data.note',
      'cs_1,ann@example.com,+33612345678,Ann,"Lee, Jr.",Europe/Paris,pro,"two\nlines"',
      'cs_2,,+33612345679,Bob,,,,',
      'cs_3,bob@example.com,0612,Cy,,,,',
      'cs_4,only,three',
      'cs_5,"dee@example.com",,"Dee ""D""",,America/New_York,free,',
    ].join('\r\n');
    await t.http
      .post('/v1/subscribers')
      .set('X-Api-Key', project.key)
      .send({ id: 'cs_2', email: 'kept@example.com', data: { old: true } })
      .expect(200);
    const result = await notifyd(['subscribers', 'import', file('audience.csv', `${csv}\r\n`)], env);
    expect(result.code).toBe(65);
    expect(result.stdout.split('\n')).toEqual([
      '5 lines read: 2 created, 1 updated, 2 refused.',
      expect.stringMatching(/^line 5 \(cs_3\): phone must be an E\.164 number/),
      expect.stringMatching(/^line 6: 3 fields where the header has 8/),
      '',
    ]);
    expect(await row('cs_1')).toEqual({
      email: 'ann@example.com',
      phone: '+33612345678',
      first_name: 'Ann',
      last_name: 'Lee, Jr.',
      locale: null,
      timezone: 'Europe/Paris',
      data: { plan: 'pro', note: 'two\nlines' },
    });
    // An empty cell keeps what was stored.
    expect(await row('cs_2')).toMatchObject({
      email: 'kept@example.com',
      phone: '+33612345679',
      first_name: 'Bob',
      data: { old: true },
    });
    expect(await row('cs_5')).toMatchObject({
      email: 'dee@example.com',
      first_name: 'Dee "D"',
      data: { plan: 'free' },
    });
    expect(await row('cs_3')).toBeUndefined();
  });

  it('splits a batch the instance finds too large, and refuses by line the one subscriber that alone is', async () => {
    const lines = Array.from({ length: 1200 }, (_, i) =>
      JSON.stringify({ id: `big_${i}`, email: `big${i}@example.com`, data: { pad: 'x'.repeat(60) } }),
    );
    lines[700] = JSON.stringify({ id: 'big_700', data: { blob: 'y'.repeat(70 * 1024) } });
    const result = await notifyd(
      ['subscribers', 'import', file('big.jsonl', lines.join('\n')), '--batch', '1000', '--json'],
      env,
    );
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ created: 1199, failed: 1 });
    expect(summary.errors).toEqual([
      { line: 701, id: 'big_700', field: null, message: expect.stringMatching(/BODY_LIMIT_BYTES/) },
    ]);
    expect(await count('big_')).toBe(1199);
  });

  it('--dry-run checks every line with the server’s rules, needs no key, and writes nothing', async () => {
    const path = file(
      'dry.ndjson',
      [JSON.stringify({ id: 'dry_1', timezone: 'Mars/Olympus' }), JSON.stringify({ id: 'dry_2' }), 'nope'].join('\n'),
    );
    const result = await notifyd(['subscribers', 'import', path, '--dry-run'], { NOTIFYD_URL: 'http://127.0.0.1:1' });
    expect(result.code).toBe(65);
    expect(result.stdout).toMatch(/^Dry run: 3 lines read, 1 valid, 2 refused; nothing was sent\./);
    expect(result.stdout).toMatch(/^line 1 \(dry_1\): timezone must be an IANA time zone/m);
    expect(result.stdout).toMatch(/^line 3: not valid JSON/m);
    expect(await count('dry_')).toBe(0);
    const clean = await notifyd(
      ['subscribers', 'import', file('clean.csv', 'id,email\nok_1,ok@example.com\n'), '--dry-run'],
      {},
    );
    expect(clean.code).toBe(0);
  });

  it('--from-line resumes past the line a run stopped at: the lines before it are not read again', async () => {
    // Line 3 opens a quote it never closes: the first run writes line 2 and stops there.
    const csv = 'id,first_name\nr_1,Ann\nr_2,"Bob\nr_3,Cy\nr_4,Dee\n';
    const first = await notifyd(['subscribers', 'import', file('resume.csv', csv)], env);
    expect(first.code).toBe(65);
    expect(first.stdout).toMatch(/Stopped at line 3: a double quote opened here is never closed/);
    expect(first.stdout).toMatch(/--from-line 3/);
    expect(await count('r_')).toBe(1);
    const resumed = await notifyd(['subscribers', 'import', join(dir, 'resume.csv'), '--from-line', '4'], env);
    expect([resumed.code, resumed.stderr]).toEqual([0, '']);
    expect(resumed.stdout).toBe('2 lines read from line 4 on: 2 created, 0 updated, 0 refused.\n');
    expect(await row('r_3')).toMatchObject({ first_name: 'Cy' });
    expect(await row('r_4')).toMatchObject({ first_name: 'Dee' });
    expect(await row('r_2')).toBeUndefined();

    // NDJSON: a line before N is neither parsed nor written (line 1 changed since is left as
    // stored, the bad line 2 is not reported), and refused lines keep the file's numbers.
    const ndjson = (name: string) =>
      [
        JSON.stringify({ id: 'rn_1', first_name: name }),
        '{"id": "rn_2", ',
        JSON.stringify({ id: 'rn_3', first_name: 'Three' }),
        JSON.stringify({ id: 'rn_4', email: 'not-an-email' }),
        JSON.stringify({ id: 'rn_5', first_name: 'Five' }),
      ].join('\n');
    expect((await notifyd(['subscribers', 'import', file('resume.ndjson', ndjson('One'))], env)).code).toBe(65);
    const again = await notifyd(
      ['subscribers', 'import', file('resume.ndjson', ndjson('Changed')), '--from-line', '3', '--json'],
      env,
    );
    expect(again.code).toBe(65);
    const summary = JSON.parse(again.stdout);
    expect(summary).toMatchObject({ from_line: 3, lines: 3, created: 0, updated: 2, failed: 1, stopped: null });
    expect(summary.errors).toEqual([
      { line: 4, id: 'rn_4', field: 'email', message: expect.stringMatching(/^email must be an email address/) },
    ]);
    expect(await row('rn_1')).toMatchObject({ first_name: 'One' });
    expect(await count('rn_')).toBe(3);
  });

  it('refuses a --from-line that is not a whole number from 1, naming the flag', async () => {
    const good = file('from.csv', 'id\nf_1\n');
    for (const value of ['0', 'ten']) {
      const bad = await notifyd(['subscribers', 'import', good, '--from-line', value], env);
      expect(bad.code).toBe(64);
      expect(bad.stderr).toMatch(/--from-line must be a whole number from 1.*e\.g\. --from-line 5001/);
    }
    expect(await count('f_')).toBe(0);
  }, 60_000);

  // Each case starts a node process: on a loaded machine that is seconds apiece.
  it('says what is wrong with the command line or the key', async () => {
    const good = file('good.csv', 'id\ng_1\n');
    const noKey = await notifyd(['subscribers', 'import', good], { NOTIFYD_URL: t.url });
    expect(noKey.code).toBe(64);
    expect(noKey.stderr).toMatch(/NOTIFYD_PROJECT_KEY/);
    const admin = await notifyd(['subscribers', 'import', good], {
      NOTIFYD_URL: t.url,
      NOTIFYD_PROJECT_KEY: ADMIN_KEY,
    });
    expect(admin.code).toBe(77);
    expect(admin.stdout).toMatch(/Stopped at line 2: Invalid API key/);
    expect((await notifyd(['subscribers', 'import', file('list.txt', 'id\n')], env)).stderr).toMatch(
      /--format ndjson or --format csv/,
    );
    expect((await notifyd(['subscribers', 'import', join(dir, 'missing.csv')], env)).code).toBe(64);
    expect((await notifyd(['subscribers', 'import', good, '--batch', '20000'], env)).stderr).toMatch(
      /--batch must be a whole number from 1 to 10000/,
    );
    expect((await notifyd(['subscribers', 'export'], env)).code).toBe(64);
  }, 120_000);

  it('stops at a bad header, a quote never closed or bytes that are not UTF-8, after writing the lines before', async () => {
    const header = await notifyd(['subscribers', 'import', file('header.csv', 'id,mail\nh_1,h@example.com\n')], env);
    expect(header.code).toBe(65);
    expect(header.stdout).toMatch(/Stopped at line 1: the header's column 'mail' is not one notifyd knows/);

    // A quote never closed: the lines before it are written, the import stops there.
    const open = await notifyd(
      ['subscribers', 'import', file('open.csv', 'id,first_name\nq_1,Ann\nq_2,"Bob\nq_3,Cy\n')],
      env,
    );
    expect(open.code).toBe(65);
    expect(open.stdout).toMatch(/Stopped at line 3: a double quote opened here is never closed/);
    expect(await count('q_')).toBe(1);

    const latin1 = await notifyd(
      ['subscribers', 'import', file('latin1.csv', 'id,first_name\nl_1,Ann\n'), '--format', 'csv'],
      env,
    );
    expect(latin1.code).toBe(0);
    writeFileSync(
      join(dir, 'latin1.csv'),
      Buffer.concat([Buffer.from('id,first_name\nl_2,Ren'), Buffer.from([0xe9]), Buffer.from('\n')]),
    );
    const bad = await notifyd(['subscribers', 'import', join(dir, 'latin1.csv')], env);
    expect(bad.code).toBe(65);
    expect(bad.stdout).toMatch(/the file is not UTF-8 text.*iconv/);
  }, 120_000);
});
