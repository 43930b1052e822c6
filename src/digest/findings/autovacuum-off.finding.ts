import type { FindingRule } from '../digest.types.js';

/**
 * Every job leaves two dead row versions on `jobs` (claim, finalise). With autovacuum kept off
 * the table — the server's `autovacuum` or `track_counts` off, or the table's
 * `autovacuum_enabled = false` — none is ever reclaimed: the table and its indexes grow without
 * end and the claim slows. Said as soon as it is so, before jobs_table_bloat can fire.
 */
export const autovacuumOff: FindingRule = ({ database: d }) => {
  if (d.jobs_autovacuum_blocked_by.length === 0) return [];
  return [
    {
      severity: 'warning',
      code: 'autovacuum_off',
      message: `Autovacuum cannot visit the jobs table (${d.jobs_autovacuum_blocked_by.join('; ')}): the dead row versions every job leaves are never reclaimed, so the table grows and the claim slows.`,
      action:
        "Turn it back on: on the server ALTER SYSTEM SET autovacuum = on (and track_counts = on), then SELECT pg_reload_conf(); on the table ALTER TABLE jobs RESET (autovacuum_enabled). Until then run VACUUM (ANALYZE) jobs on a schedule.",
      evidence: { jobs_autovacuum_blocked_by: d.jobs_autovacuum_blocked_by, jobs_dead_tuples: d.jobs_dead_tuples, jobs_last_autovacuum: d.jobs_last_autovacuum },
    },
  ];
};
