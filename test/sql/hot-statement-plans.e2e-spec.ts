import pg from 'pg';
import { LIVE_QUEUE, LIVE_QUEUE_PLAN } from '../../src/digest/sql/digest.sql.js';
import { sendChecksSql } from '../../src/governance/sql/send-checks.sql.js';
import { CLAIM_JOBS } from '../../src/jobs/sql/claim.sql.js';
import { MARK_SENT, REQUEUE } from '../../src/jobs/sql/finalise.sql.js';
import { FIND_BY_IDEMPOTENCY_KEYS, INSERT_COALESCED_JOBS } from '../../src/jobs/sql/insert.sql.js';
import { REAP_EXPIRED_LEASES } from '../../src/jobs/sql/maintenance.sql.js';
import { FIND_ADDRESSES_BY_IDS } from '../../src/subscribers/subscribers.sql.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Conflict Arbiter Indexes'?: string[];
  Plans?: PlanNode[];
}

/** Every node of a plan, flattened. */
const nodesOf = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
/** What a plan reads: "Index Scan jobs_claim_idx", "Seq Scan jobs", "Conflict Arbiter jobs_idempotency_idx"… */
const readsOf = (plan: PlanNode): string[] =>
  nodesOf(plan).flatMap((n) => [
    ...(n['Index Name']
      ? [`${n['Node Type']} ${n['Index Name']}`]
      : n['Node Type'] === 'Seq Scan'
        ? [`Seq Scan ${n['Relation Name']}`]
        : []),
    ...(n['Conflict Arbiter Indexes'] ?? []).map((i) => `Conflict Arbiter ${i}`),
  ]);

/**
 * The hot statements read the index their comment names, on a table shaped like production's
 * (most jobs finished, a live queue of a few thousand, jobs of four channels and five
 * priorities, idempotency keys on a third) and after ANALYZE. Each statement is planned as it
 * runs: the prepared ones both as a custom plan (the first five runs on a connection) and as
 * the generic plan PostgreSQL settles on afterwards, the others as custom plans. A plan that
 * falls back to a sequential scan of jobs would make each send or claim cost the whole table.
 */
describe('hot statements use the indexes their comments name (EXPLAIN on a realistic table)', () => {
  let db: TestDatabase;
  let client: pg.Client;
  const ids: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query(`INSERT INTO projects (id, name) VALUES ('acme', 'Acme'), ('beta', 'Beta')`);
    // 120 000 jobs: 90 % finished, 6 % pending (a tenth of them scheduled for later), 3 % retry, 1 % processing.
    await client.query(`
      INSERT INTO jobs (project_id, channel, recipient, priority, status, run_at, scheduled_at, created_at, claimed_at,
                        finished_at, idempotency_key, attempts, provider)
      SELECT CASE WHEN g % 7 = 0 THEN 'beta' ELSE 'acme' END,
             (ARRAY['email','sms','push','in_app'])[1 + g % 4], 'user' || g || '@example.com', (ARRAY[10,30,50,70,80])[1 + g % 5],
             s.status,
             now() + CASE WHEN s.status = 'pending' AND g % 10 = 0 THEN interval '1 day' ELSE -(g % 3600) * interval '1 second' END,
             now() - (g % 3600) * interval '1 second', now() - (g % 86400) * interval '1 second',
             CASE WHEN s.status = 'processing' THEN now() - (g % 600) * interval '1 second' END,
             CASE WHEN s.status = 'sent' THEN now() - (g % 3600) * interval '1 second' END,
             CASE WHEN g % 3 = 0 THEN 'order-' || g END, CASE WHEN s.status = 'pending' THEN 0 ELSE 1 END,
             CASE WHEN s.status IN ('sent','retry') THEN 'log' END
        FROM generate_series(1, 120000) g,
             LATERAL (SELECT CASE WHEN g % 100 < 90 THEN 'sent' WHEN g % 100 < 96 THEN 'pending' WHEN g % 100 < 99 THEN 'retry' ELSE 'processing' END AS status) s`);
    await client.query(
      `INSERT INTO subscribers (project_id, id, email) SELECT 'acme', 'sub' || g, 'sub' || g || '@example.com' FROM generate_series(1, 20000) g`,
    );
    await client.query(`
      INSERT INTO subscriber_preferences (project_id, subscriber_id, channel, scope_kind, scope, enabled)
      SELECT 'acme', 'sub' || g, c, 'topic', 'marketing', false FROM generate_series(1, 20000) g, unnest(ARRAY['email','sms']) c`);
    await client.query(`
      INSERT INTO suppressions (project_id, channel, address, reason, source)
      SELECT 'acme', 'email', 'gone' || g || '@example.com', 'bounce', 'provider' FROM generate_series(1, 20000) g`);
    await client.query(
      `INSERT INTO recipient_caps (project_id, channel, topic, max_messages, window_seconds) VALUES ('acme', 'email', '*', 5, 3600)`,
    );
    await client.query('ANALYZE');
    ids.push(...(await client.query(`SELECT id FROM jobs WHERE status = 'processing' LIMIT 50`)).rows.map((r) => r.id));
  }, 120_000);

  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  /** A parameter as SQL literal text: arrays in PostgreSQL's array syntax, each element quoted. */
  const literal = (value: unknown): string => {
    if (value === null) return 'NULL';
    if (!Array.isArray(value)) return client.escapeLiteral(String(value));
    const elements = value.map((v) => (v === null ? 'NULL' : `"${String(v).replace(/["\\]/g, '\\$&')}"`));
    return client.escapeLiteral(`{${elements.join(',')}}`);
  };
  let statements = 0;
  /** The plan of `text` with `params`, prepared then executed as the server would run it. */
  const planOf = async (
    text: string,
    params: unknown[],
    mode: 'force_custom_plan' | 'force_generic_plan',
  ): Promise<string[]> => {
    const name = `hot_${++statements}`;
    await client.query(`PREPARE ${name} AS ${text}`);
    await client.query(`SET plan_cache_mode = ${mode}`);
    const args = params.map(literal);
    const { rows } = await client.query(
      `EXPLAIN (FORMAT JSON) EXECUTE ${name}${args.length ? `(${args.join(', ')})` : ''}`,
    );
    await client.query(`DEALLOCATE ${name}`);
    return readsOf(rows[0]['QUERY PLAN'][0].Plan as PlanNode);
  };
  const bothPlans = async (text: string, params: unknown[]) => [
    await planOf(text, params, 'force_custom_plan'),
    await planOf(text, params, 'force_generic_plan'),
  ];
  const noSeqScanOfJobs = (reads: string[]) => expect(reads).not.toContain('Seq Scan jobs');

  it('the claim probes jobs_claim_idx per priority band', async () => {
    for (const reads of await bothPlans(CLAIM_JOBS.text, [100, [], []])) {
      expect(reads).toContain('Index Scan jobs_claim_idx');
      noSeqScanOfJobs(reads);
    }
  });

  it('finalising a batch (sent) and releasing it (requeue) find their rows by the primary key', async () => {
    const values = JSON.stringify(
      Object.fromEntries(ids.map((id) => [id, { a: 1, p: 'log', m: 'msg', t: new Date().toISOString() }])),
    );
    for (const text of [MARK_SENT.text, REQUEUE.text]) {
      for (const reads of await bothPlans(text, [values])) {
        expect(reads).toContain('Index Scan jobs_pkey');
        noSeqScanOfJobs(reads);
      }
    }
  });

  it('the reaper reads only processing jobs, through jobs_processing_idx', async () => {
    const reads = await planOf(REAP_EXPIRED_LEASES, [300, 500], 'force_custom_plan');
    expect(reads.some((r) => r.endsWith('jobs_processing_idx'))).toBe(true);
    noSeqScanOfJobs(reads);
  });

  it('the coalesced insert skips held idempotency keys through jobs_idempotency_idx', async () => {
    const row = [
      'acme',
      '{}',
      50,
      5,
      null,
      null,
      'email',
      null,
      'a@example.com',
      new Date().toISOString(),
      'order-new',
      null,
      '0193a6f0-0000-7000-8000-000000000001',
      null,
    ];
    const params = row.map((v) => [v]);
    for (const reads of await bothPlans(INSERT_COALESCED_JOBS.text, params))
      expect(reads).toContain('Conflict Arbiter jobs_idempotency_idx');
  });

  it('the enqueue lookups: idempotency keys, suppressions, preferences, caps and subscriber addresses by their keys', async () => {
    const idem = await planOf(
      FIND_BY_IDEMPOTENCY_KEYS,
      ['acme', ['order-3-email', 'order-6-email']],
      'force_custom_plan',
    );
    expect(idem.some((r) => r.endsWith('jobs_idempotency_idx'))).toBe(true);
    noSeqScanOfJobs(idem);

    for (const reads of await bothPlans(sendChecksSql(true, true, true).text, [
      'acme',
      'email',
      'gone7@example.com',
      'sub7',
    ])) {
      // recipient_caps holds a handful of rows per project: a sequential scan of it is the cheaper read.
      expect(reads.filter((r) => r.startsWith('Index')).map((r) => r.split(' ').at(-1))).toEqual(
        expect.arrayContaining(['subscriber_preferences_pkey', 'suppressions_active_idx']),
      );
      expect(reads.filter((r) => r.startsWith('Seq Scan') && r !== 'Seq Scan recipient_caps')).toEqual([]);
    }
    for (const reads of await bothPlans(sendChecksSql(false, false, false).text, [
      'acme',
      ['email', 'sms'],
      ['gone7@example.com', '+33600000000'],
    ])) {
      expect(reads.some((r) => r.endsWith('suppressions_active_idx'))).toBe(true);
      expect(reads.filter((r) => r.startsWith('Seq Scan'))).toEqual([]);
    }
    for (const reads of await bothPlans(FIND_ADDRESSES_BY_IDS.text, ['acme', ['sub1', 'sub2', 'sub3']])) {
      expect(reads.some((r) => r.endsWith('subscribers_pkey'))).toBe(true);
      expect(reads).not.toContain('Seq Scan subscribers');
    }
  });

  it("the digest's live queue reads only live jobs, through jobs_claim_idx", async () => {
    await client.query('BEGIN');
    try {
      await client.query(LIVE_QUEUE_PLAN);
      const reads = await planOf(LIVE_QUEUE, [], 'force_custom_plan');
      expect(reads).toContain('Index Scan jobs_claim_idx');
      noSeqScanOfJobs(reads);
    } finally {
      await client.query('ROLLBACK');
    }
  });
});
