import type { FindingRule } from '../digest.types.js';

/** Dead row versions on the queue table from which it is worth a look, and from which it is urgent. */
export const BLOAT_MIN_DEAD = 10_000;
export const BLOAT_WARNING_PERCENT = 20;
export const BLOAT_CRITICAL_PERCENT = 50;

/**
 * Every job writes three row versions. When autovacuum falls behind (or a long transaction
 * pins the xmin horizon), dead tuples pile up, the claim scans them and the table bloats.
 */
export const jobsBloat: FindingRule = ({ database: d }) => {
  if (d.jobs_dead_tuples < BLOAT_MIN_DEAD || d.jobs_dead_percent < BLOAT_WARNING_PERCENT) return [];
  return [
    {
      severity: d.jobs_dead_percent >= BLOAT_CRITICAL_PERCENT ? 'critical' : 'warning',
      code: 'jobs_table_bloat',
      message: `The jobs table holds ${d.jobs_dead_tuples} dead row versions (${d.jobs_dead_percent} % of its rows); last vacuum ${d.jobs_last_autovacuum ?? 'never'}. Claims scan them and the table grows.`,
      action:
        'Run VACUUM (ANALYZE) jobs; then look for what holds the xmin horizon back: long transactions or idle-in-transaction sessions (SELECT pid, xact_start, state FROM pg_stat_activity WHERE backend_xmin IS NOT NULL ORDER BY xact_start), stale replication slots or prepared transactions. Lower JOB_RETENTION_DAYS if finished jobs dominate.',
      evidence: { ...d },
    },
  ];
};
