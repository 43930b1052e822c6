import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound webhooks: endpoints per project and the queue of their deliveries.
 *
 * Deliveries are a queue of their own (same claim/finalise discipline as jobs: SKIP LOCKED
 * claim, fenced set-based finalise, lease reaper) rather than jobs on a `webhook` channel:
 * their retry schedule spans a day, a 410 disables their endpoint, they must not appear in
 * the project's job counts and digest outcomes, and a job event about a webhook job would
 * loop. The secret is stored encrypted (AES-256-GCM): an HMAC signer needs the secret
 * itself, so it cannot be hashed; encrypted, a database dump alone does not leak it.
 */
export class Webhooks1764460800050 implements MigrationInterface {
  name = 'Webhooks1764460800050';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id                          uuid PRIMARY KEY,
        project_id                  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        url                         text NOT NULL,
        description                 text,
        events                      text[] NOT NULL,
        enabled                     boolean NOT NULL DEFAULT true,
        secret_enc                  bytea NOT NULL,
        secret_hint                 text NOT NULL,
        previous_secret_enc         bytea,
        previous_secret_expires_at  timestamptz,
        disabled_at                 timestamptz,
        disabled_reason             text,
        last_success_at             timestamptz,
        last_failure_at             timestamptz,
        created_at                  timestamptz NOT NULL DEFAULT now(),
        updated_at                  timestamptz NOT NULL DEFAULT now()
      )`);
    // The fan-out at emit time: enabled endpoints of a project (a handful per project).
    await q.query(`CREATE INDEX webhook_endpoints_fanout_idx ON webhook_endpoints (project_id) WHERE enabled`);
    // Listings per project, newest first; the digest's disabled endpoints.
    await q.query(`CREATE INDEX webhook_endpoints_project_idx ON webhook_endpoints (project_id, created_at DESC)`);
    await q.query(
      `CREATE INDEX webhook_endpoints_disabled_idx ON webhook_endpoints (disabled_at) WHERE NOT enabled AND disabled_at IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE webhook_deliveries (
        id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        endpoint_id       uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        project_id        text NOT NULL,
        event_type        text NOT NULL,
        payload           jsonb NOT NULL,
        status            text NOT NULL DEFAULT 'pending'
                          CHECK (status IN ('pending','processing','retry','delivered','failed','cancelled')),
        attempts          integer NOT NULL DEFAULT 0,
        max_attempts      integer NOT NULL,
        run_at            timestamptz NOT NULL DEFAULT now(),
        claimed_at        timestamptz,
        last_status_code  integer,
        last_error        text,
        attempt_log       jsonb NOT NULL DEFAULT '[]',
        created_at        timestamptz NOT NULL DEFAULT now(),
        finished_at       timestamptz
      ) WITH (
        autovacuum_vacuum_scale_factor = 0.02,
        autovacuum_vacuum_threshold = 1000,
        autovacuum_analyze_scale_factor = 0.02
      )`);
    // The claim: due deliveries in run_at order; finished rows leave the index when claimed.
    await q.query(
      `CREATE INDEX webhook_deliveries_claim_idx ON webhook_deliveries (run_at) WHERE status IN ('pending','retry')`,
    );
    // The reaper: deliveries whose worker died mid-request.
    await q.query(
      `CREATE INDEX webhook_deliveries_processing_idx ON webhook_deliveries (claimed_at) WHERE status = 'processing'`,
    );
    // The delivery log of one endpoint, newest first (keyset pagination), and cancel-on-disable.
    await q.query(
      `CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC)`,
    );
    // Retention of finished deliveries.
    await q.query(`CREATE INDEX webhook_deliveries_created_brin ON webhook_deliveries USING brin (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS webhook_deliveries`);
    await q.query(`DROP TABLE IF EXISTS webhook_endpoints`);
  }
}
