import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Event-triggered workflows (notifyd §2.8, plus throttle and branch).
 *
 * - workflow_runs is a queue like jobs: claimed with SKIP LOCKED when due (run_at), fenced by
 *   `attempts`, reaped when a worker dies. A run keeps a copy of the steps it started with,
 *   so editing a workflow never changes a run halfway.
 * - workflow_digests holds one OPEN digest per (workflow, step, subscriber, digest key),
 *   guarded by a partial unique index instead of a lock: runs that reach the step join the
 *   open row with INSERT … ON CONFLICT DO UPDATE (atomic, never two open rows); the run that
 *   opened it closes it when the window ends and sends one message with every item.
 * - workflow_throttles counts runs per window and key for throttle steps (one row, updated
 *   under its row lock).
 */
export class Workflows1764460800051 implements MigrationInterface {
  name = 'Workflows1764460800051';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE workflows (
        project_id     text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        id             text NOT NULL CHECK (id ~ '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$'),
        name           text NOT NULL,
        description    text,
        trigger_event  text NOT NULL,
        steps          jsonb NOT NULL,
        enabled        boolean NOT NULL DEFAULT true,
        created_at     timestamptz NOT NULL DEFAULT now(),
        updated_at     timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, id)
      )`);
    // Trigger: the enabled workflows of a project listening to an event.
    await q.query(`CREATE INDEX workflows_trigger_idx ON workflows (project_id, trigger_event) WHERE enabled`);

    await q.query(`
      CREATE TABLE workflow_runs (
        id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id       text NOT NULL,
        workflow_id      text NOT NULL,
        subscriber_id    text NOT NULL,
        trigger_event    text NOT NULL,
        payload          jsonb NOT NULL DEFAULT '{}',
        steps            jsonb NOT NULL,
        status           text NOT NULL DEFAULT 'pending'
                         CHECK (status IN ('pending','processing','waiting','completed','failed','cancelled')),
        current_step     integer NOT NULL DEFAULT 0,
        run_at           timestamptz NOT NULL DEFAULT now(),
        attempts         integer NOT NULL DEFAULT 0,
        errors           integer NOT NULL DEFAULT 0,
        claimed_at       timestamptz,
        context          jsonb NOT NULL DEFAULT '{}',
        history          jsonb NOT NULL DEFAULT '[]',
        outcome          text,
        error            text,
        idempotency_key  text,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now(),
        finished_at      timestamptz,
        FOREIGN KEY (project_id, workflow_id) REFERENCES workflows (project_id, id) ON DELETE CASCADE
      ) WITH (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02)`);
    // The engine's claim: runs due now (pending, or waiting whose delay/digest window ended).
    await q.query(
      `CREATE INDEX workflow_runs_claim_idx ON workflow_runs (run_at) WHERE status IN ('pending','waiting')`,
    );
    // The reaper: runs whose engine died.
    await q.query(
      `CREATE INDEX workflow_runs_processing_idx ON workflow_runs (claimed_at) WHERE status = 'processing'`,
    );
    // Listing a project's runs, newest first (keyset); filters ride on it.
    await q.query(`CREATE INDEX workflow_runs_project_idx ON workflow_runs (project_id, created_at DESC, id DESC)`);
    // A trigger replayed with the same key starts nothing new.
    await q.query(`
      CREATE UNIQUE INDEX workflow_runs_idempotency_idx ON workflow_runs (project_id, workflow_id, idempotency_key)
       WHERE idempotency_key IS NOT NULL`);

    await q.query(`
      CREATE TABLE workflow_digests (
        id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id     text NOT NULL,
        workflow_id    text NOT NULL,
        step_index     integer NOT NULL,
        subscriber_id  text NOT NULL,
        digest_key     text NOT NULL DEFAULT '',
        status         text NOT NULL DEFAULT 'open' CHECK (status IN ('open','closed','cancelled')),
        leader_run_id  uuid NOT NULL,
        opened_at      timestamptz NOT NULL DEFAULT now(),
        closes_at      timestamptz NOT NULL,
        closed_at      timestamptz,
        FOREIGN KEY (project_id, workflow_id) REFERENCES workflows (project_id, id) ON DELETE CASCADE
      )`);
    // At most one open digest per key: the guard that makes joining atomic (no lock, no race).
    await q.query(`
      CREATE UNIQUE INDEX workflow_digests_open_idx
          ON workflow_digests (project_id, workflow_id, step_index, subscriber_id, digest_key)
       WHERE status = 'open'`);
    await q.query(`CREATE INDEX workflow_digests_leader_idx ON workflow_digests (leader_run_id) WHERE status = 'open'`);
    await q.query(`
      CREATE TABLE workflow_digest_items (
        digest_id   uuid NOT NULL REFERENCES workflow_digests (id) ON DELETE CASCADE,
        run_id      uuid NOT NULL,
        payload     jsonb NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (digest_id, run_id)
      )`);

    await q.query(`
      CREATE TABLE workflow_throttles (
        project_id     text NOT NULL,
        workflow_id    text NOT NULL,
        step_index     integer NOT NULL,
        subscriber_id  text NOT NULL,
        throttle_key   text NOT NULL DEFAULT '',
        window_start   timestamptz NOT NULL,
        count          integer NOT NULL,
        PRIMARY KEY (project_id, workflow_id, step_index, subscriber_id, throttle_key),
        FOREIGN KEY (project_id, workflow_id) REFERENCES workflows (project_id, id) ON DELETE CASCADE
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS workflow_throttles`);
    await q.query(`DROP TABLE IF EXISTS workflow_digest_items`);
    await q.query(`DROP TABLE IF EXISTS workflow_digests`);
    await q.query(`DROP TABLE IF EXISTS workflow_runs`);
    await q.query(`DROP TABLE IF EXISTS workflows`);
  }
}
