import { AUTOVACUUM_BLOCKERS } from '../autovacuum-blockers.js';
import type { FindingRule } from '../digest.types.js';

/**
 * Every job leaves dead row versions on `jobs` (claim, finalise). With autovacuum kept off the
 * table, their index entries are never removed and the space they hold is reused only where
 * page pruning reaches it, until a manual VACUUM or an anti-wraparound one; and nothing runs
 * ANALYZE, so the planner plans the queue's statements on stale statistics. Said as soon as it
 * is so, before jobs_table_bloat can fire. The action names only the fixes that apply.
 */
export const autovacuumOff: FindingRule = ({ database: d }) => {
  if (d.jobs_autovacuum_blocked_by.length === 0) return [];
  const fixes = AUTOVACUUM_BLOCKERS.filter((b) => d.jobs_autovacuum_blocked_by.includes(b.label)).map((b) => b.fix);
  return [
    {
      severity: 'warning',
      code: 'autovacuum_off',
      message:
        `Autovacuum cannot visit the jobs table (${d.jobs_autovacuum_blocked_by.join('; ')}): the dead row versions every job leaves and their index entries ` +
        'pile up until someone runs VACUUM, the table and its indexes bloat, and its statistics are no longer refreshed by ANALYZE.',
      action: `Turn it back on: ${fixes.join('; ')}. Until then run VACUUM (ANALYZE) jobs on a schedule.`,
      evidence: {
        jobs_autovacuum_blocked_by: d.jobs_autovacuum_blocked_by,
        jobs_dead_tuples: d.jobs_dead_tuples,
        jobs_last_autovacuum: d.jobs_last_autovacuum,
      },
    },
  ];
};
