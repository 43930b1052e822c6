import type { FindingRule } from '../digest.types.js';

/** Sessions waiting on the lock at one instant from which it is a pattern rather than chance. */
export const NOTIFY_LOCK_WARNING = 3;

/**
 * Sessions waiting on the NOTIFY commit lock (Lock:object, pg_database object 0): every
 * transaction that NOTIFYs takes it before committing, so commits are serialised across the
 * cluster (seed 003: a flat ceiling near 4 000 commits/s). notifyd never NOTIFYs inside its
 * own transactions, so waiters mean another client of this PostgreSQL does, or a custom module.
 */
export const notifyLock: FindingRule = ({ database: d }) =>
  d.notify_lock_waiters > 0
    ? [
        {
          severity: d.notify_lock_waiters >= NOTIFY_LOCK_WARNING ? 'warning' : 'info',
          code: 'notify_commit_lock',
          message: `${d.notify_lock_waiters} active session(s) are waiting on the NOTIFY commit lock: transactions that NOTIFY are committing one at a time, cluster-wide.`,
          action:
            "Find who NOTIFYs inside transactions (SELECT pid, application_name, query FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'object'); move the NOTIFY after the commit (batched, as notifyd's signals do) or NOTIFY only when a listener waits. SIGNALS_* settings tune notifyd's own sender.",
          evidence: { notify_lock_waiters: d.notify_lock_waiters },
        },
      ]
    : [];
