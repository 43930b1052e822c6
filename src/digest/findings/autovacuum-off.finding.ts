import type { FindingRule } from '../digest.types.js';

/** The fix for each thing that can keep autovacuum off the jobs table (labels from DATABASE_HEALTH). */
const FIXES: Record<string, string> = {
  'server: autovacuum = off':
    'set autovacuum = on in postgresql.conf (or ALTER SYSTEM SET autovacuum = on; on a managed server, its parameter group) and reload (SELECT pg_reload_conf())',
  'notifyd sessions: track_counts = off':
    "set track_counts = on where it is turned off: postgresql.conf or the parameter group, or ALTER DATABASE … RESET track_counts / ALTER ROLE … RESET track_counts for notifyd's database and user",
  'table jobs: autovacuum_enabled = false': 'ALTER TABLE jobs RESET (autovacuum_enabled)',
};

/**
 * Every job leaves dead row versions on `jobs` (claim, finalise). With autovacuum kept off the
 * table, their index entries are never removed and the space they hold is reused only where
 * page pruning reaches it, until a manual VACUUM or an anti-wraparound one; and nothing runs
 * ANALYZE, so the planner plans the queue's statements on stale statistics. Said as soon as it
 * is so, before jobs_table_bloat can fire. The action names only the fixes that apply.
 */
export const autovacuumOff: FindingRule = ({ database: d }) => {
  if (d.jobs_autovacuum_blocked_by.length === 0) return [];
  const fixes = d.jobs_autovacuum_blocked_by.map((cause) => FIXES[cause] ?? cause);
  return [
    {
      severity: 'warning',
      code: 'autovacuum_off',
      message:
        `Autovacuum cannot visit the jobs table (${d.jobs_autovacuum_blocked_by.join('; ')}): the dead row versions every job leaves and their index entries ` +
        'pile up until someone runs VACUUM, the table and its indexes bloat, and its statistics are no longer refreshed by ANALYZE.',
      action: `Turn it back on: ${fixes.join('; ')}. Until then run VACUUM (ANALYZE) jobs on a schedule.`,
      evidence: { jobs_autovacuum_blocked_by: d.jobs_autovacuum_blocked_by, jobs_dead_tuples: d.jobs_dead_tuples, jobs_last_autovacuum: d.jobs_last_autovacuum },
    },
  ];
};
