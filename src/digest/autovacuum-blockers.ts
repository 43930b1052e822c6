/**
 * What can keep autovacuum off the jobs table, each once: the DATABASE_HEALTH column that reads
 * it, how the digest names it (database.jobs_autovacuum_blocked_by), and the fix the
 * autovacuum_off finding gives for it.
 */
export const AUTOVACUUM_BLOCKERS = [
  {
    column: 'server_autovacuum_off',
    label: 'server: autovacuum = off',
    fix: 'set autovacuum = on in postgresql.conf (or ALTER SYSTEM SET autovacuum = on; on a managed server, its parameter group) and reload (SELECT pg_reload_conf())',
  },
  {
    column: 'session_track_counts_off',
    label: 'notifyd sessions: track_counts = off',
    fix: "set track_counts = on where it is turned off: postgresql.conf or the parameter group, or ALTER DATABASE … RESET track_counts / ALTER ROLE … RESET track_counts for notifyd's database and user",
  },
  {
    column: 'table_autovacuum_disabled',
    label: 'table jobs: autovacuum_enabled = false',
    fix: 'ALTER TABLE jobs RESET (autovacuum_enabled)',
  },
] as const;

export type AutovacuumBlockerColumn = (typeof AUTOVACUUM_BLOCKERS)[number]['column'];
