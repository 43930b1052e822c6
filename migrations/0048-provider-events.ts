import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Evidence from providers: one row per provider event (delivered, bounced, complained, opened…),
 * keyed by the provider's own event id so that a webhook delivered twice is stored once. The
 * row is also the job's event history (GET /v1/jobs/:id shows them as `provider_events`).
 *
 * jobs gains `complained_at` and an index on provider_message_id: providers that cannot carry
 * our job id (or a connector that did not set it) are matched by their own message id. The
 * index is partial (sent jobs only have one) and costs one btree insert per sent job, on an
 * update that is already not HOT (status leaves the claim index).
 */
export class ProviderEvents1764460800048 implements MigrationInterface {
  name = 'ProviderEvents1764460800048';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE provider_events (
        provider             text NOT NULL,
        event_id             text NOT NULL,
        project_id           text,
        job_id               uuid,
        event_type           text NOT NULL,
        provider_event_type  text NOT NULL,
        provider_message_id  text,
        recipients           text[] NOT NULL DEFAULT '{}',
        error                text,
        occurred_at          timestamptz,
        received_at          timestamptz NOT NULL DEFAULT now(),
        payload              jsonb NOT NULL DEFAULT '{}',
        PRIMARY KEY (provider, event_id)
      )`);
    // The job page: a job's events in the order they arrived.
    await q.query(
      `CREATE INDEX provider_events_job_idx ON provider_events (job_id, received_at) WHERE job_id IS NOT NULL`,
    );
    // Retention and the digest's bounce/complaint rates read recent rows by time.
    await q.query(`CREATE INDEX provider_events_received_brin ON provider_events USING brin (received_at)`);
    await q.query(`ALTER TABLE jobs ADD COLUMN complained_at timestamptz`);
    await q.query(
      `CREATE INDEX jobs_provider_message_idx ON jobs (provider_message_id) WHERE provider_message_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS jobs_provider_message_idx`);
    await q.query(`ALTER TABLE jobs DROP COLUMN IF EXISTS complained_at`);
    await q.query(`DROP TABLE IF EXISTS provider_events`);
  }
}
