import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Projects, subscribers, the jobs queue and the audit log.
 *
 * The jobs table is the queue: one row per recipient × channel. Every job writes three row
 * versions (insert, claim, finalise), so it is kept lean: few indexes (each one costs an
 * insert on every non-HOT update), partial indexes that hold only live rows, and autovacuum
 * thresholds that do not wait for 20 % of the table to be dead.
 *
 * jobs has no foreign key to projects on purpose: a foreign key check takes a KEY SHARE lock
 * on the project row for every inserted job, which serialises concurrent batch inserts of one
 * project on multixact updates. Deleting a project deletes its jobs in the same transaction.
 */
export class InitialSchema1764460800001 implements MigrationInterface {
  name = 'InitialSchema1764460800001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE projects (
        id                      text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9_-]{0,62}$'),
        name                    text NOT NULL,
        channels                text[] NOT NULL DEFAULT '{email,in_app}',
        api_key_hash            text,
        api_key_hint            text,
        secondary_api_key_hash  text,
        secondary_api_key_hint  text,
        key_rotated_at          timestamptz,
        rate_limit_per_min      integer NOT NULL DEFAULT 600 CHECK (rate_limit_per_min > 0),
        settings                jsonb NOT NULL DEFAULT '{}',
        from_email              text,
        from_name               text,
        created_at              timestamptz NOT NULL DEFAULT now(),
        updated_at              timestamptz NOT NULL DEFAULT now()
      )`);
    // Key lookups by hash: every authenticated project request is one probe of these.
    await q.query(
      `CREATE UNIQUE INDEX projects_api_key_hash_idx ON projects (api_key_hash) WHERE api_key_hash IS NOT NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX projects_secondary_api_key_hash_idx ON projects (secondary_api_key_hash) WHERE secondary_api_key_hash IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE subscribers (
        project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        id          text NOT NULL,
        email       text,
        phone       text,
        first_name  text,
        last_name   text,
        locale      text,
        timezone    text,
        data        jsonb NOT NULL DEFAULT '{}',
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, id)
      )`);
    await q.query(
      `CREATE INDEX subscribers_email_idx ON subscribers (project_id, lower(email)) WHERE email IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE jobs (
        id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id           text NOT NULL,
        channel              text NOT NULL,
        subscriber_id        text,
        recipient            text NOT NULL,
        template_id          text,
        topic                text,
        payload              jsonb NOT NULL DEFAULT '{}',
        status               text NOT NULL DEFAULT 'pending'
                             CHECK (status IN ('pending','processing','retry','sent','failed','cancelled','bounced')),
        priority             smallint NOT NULL DEFAULT 50 CHECK (priority BETWEEN 0 AND 100),
        scheduled_at         timestamptz NOT NULL DEFAULT now(),
        run_at               timestamptz NOT NULL DEFAULT now(),
        next_retry_at        timestamptz,
        attempts             integer NOT NULL DEFAULT 0,
        max_attempts         integer NOT NULL DEFAULT 5,
        claimed_at           timestamptz,
        idempotency_key      text,
        provider             text,
        provider_message_id  text,
        error                text,
        created_at           timestamptz NOT NULL DEFAULT now(),
        sent_at              timestamptz,
        finished_at          timestamptz,
        delivered_at         timestamptz,
        bounced_at           timestamptz,
        opened_at            timestamptz,
        clicked_at           timestamptz
      ) WITH (
        autovacuum_vacuum_scale_factor = 0.01,
        autovacuum_vacuum_threshold = 1000,
        autovacuum_vacuum_insert_scale_factor = 0.05,
        autovacuum_analyze_scale_factor = 0.02,
        autovacuum_vacuum_cost_delay = 1
      )`);
    // The claim: one range scan per priority value on (priority, run_at), live rows only.
    // Finished rows leave this index as soon as they are claimed.
    await q.query(`CREATE INDEX jobs_claim_idx ON jobs (priority, run_at) WHERE status IN ('pending','retry')`);
    // Idempotency: a key is held while its job is live or sent; failed/cancelled free it.
    await q.query(`
      CREATE UNIQUE INDEX jobs_idempotency_idx ON jobs (project_id, idempotency_key)
       WHERE idempotency_key IS NOT NULL AND status NOT IN ('failed','cancelled')`);
    // The reaper: jobs processing for longer than the lease.
    await q.query(`CREATE INDEX jobs_processing_idx ON jobs (claimed_at) WHERE status = 'processing'`);
    // Time-range reads (admin search, digest windows, retention) on an append-mostly column:
    // a BRIN index costs almost nothing to maintain on the hot path.
    await q.query(`CREATE INDEX jobs_created_at_brin ON jobs USING brin (created_at)`);

    await q.query(`
      CREATE TABLE audit_log (
        id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id  text,
        actor       text NOT NULL,
        action      text NOT NULL,
        resource    text,
        metadata    jsonb NOT NULL DEFAULT '{}',
        ip          text,
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX audit_log_project_idx ON audit_log (project_id, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS audit_log`);
    await q.query(`DROP TABLE IF EXISTS jobs`);
    await q.query(`DROP TABLE IF EXISTS subscribers`);
    await q.query(`DROP TABLE IF EXISTS projects`);
  }
}
