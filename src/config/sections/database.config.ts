import { defineSection } from '../define-section.js';
import { envBool, envInt, envString, envUrl } from '../env-helpers.js';

export const databaseSection = defineSection(
  {
    /** Unset: notifyd starts an embedded PostgreSQL 18 with its data in NOTIFYD_DATA_DIR. */
    DATABASE_URL: envUrl({
      protocols: ['postgres', 'postgresql'],
      hint: 'must be a PostgreSQL URL such as postgres://user:password@host:5432/notifyd',
    }),
    DATABASE_MAX_CONNECTIONS: envInt({ default: 10, min: 2, max: 500 }),
    NOTIFYD_DATA_DIR: envString(),
    /** Statement timeout for API queries, so one slow query cannot pin a connection. */
    DATABASE_STATEMENT_TIMEOUT_MS: envInt({ default: 30_000, min: 0, max: 3_600_000 }),
    /** false: migrations run only through `notifyd migrate`; readiness fails while any is pending. */
    NOTIFYD_MIGRATE_ON_BOOT: envBool(true),
    /**
     * true: the statements of every claimed batch (claim, finalise, rule reads; see
     * preparedSql) are named prepared statements, parsed once per connection. false behind a
     * pooler that cannot keep them (PgBouncer in transaction mode before 1.21, or without
     * max_prepared_statements).
     */
    DATABASE_PREPARED_STATEMENTS: envBool(true),
  },
  (env) => ({
    url: env.DATABASE_URL,
    maxConnections: env.DATABASE_MAX_CONNECTIONS,
    dataDir: env.NOTIFYD_DATA_DIR ?? './.notifyd',
    statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    migrateOnBoot: env.NOTIFYD_MIGRATE_ON_BOOT,
    preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
  }),
);

export type DatabaseConfig = ReturnType<typeof databaseSection.build>;
