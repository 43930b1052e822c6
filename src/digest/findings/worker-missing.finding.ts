import type { FindingRule } from '../digest.types.js';
import { describeHeld, duration, queueHarm } from './harm.js';

/**
 * No worker process is alive (no heartbeat within alive_within_seconds, worker_heartbeats)
 * while due jobs wait: nothing is being sent at all. Read from the heartbeats, not inferred
 * from job activity: a queue with nothing finishing looks the same whether the worker died or
 * nothing was due, and a worker that never started leaves no processing job behind.
 */
export const workerMissing: FindingRule = (facts) => {
  const { workers, queue, generated_at } = facts;
  if (workers.alive > 0 || queue.due === 0) return [];
  const harm = queueHarm(facts);
  const silentFor = workers.last_beat_at ? (Date.parse(generated_at) - Date.parse(workers.last_beat_at)) / 1000 : null;
  const last = workers.processes[0];
  return [
    {
      severity: 'critical',
      code: 'worker_missing',
      message:
        (last
          ? `No worker process is alive: the last heartbeat came ${duration(Math.max(0, silentFor ?? 0))} ago (${last.host}, pid ${last.pid}, ${last.stopped_at ? 'stopped' : 'gone without stopping'}).`
          : 'No worker process has ever run against this database.') +
        ` ${queue.due} job(s) are due and nothing sends them: ${describeHeld(harm)}.`,
      action:
        'Start a worker: a replica with NOTIFYD_ROLE=worker (or all) and this DATABASE_URL (docker compose up -d worker; on Kubernetes, scale the worker Deployment to 1 or more). ' +
        'If one runs, its log says why it stopped beating (it cannot reach the database, or it is crash-looping); GET /v1/health on an api replica reports workers.alive.',
      evidence: {
        workers_alive: 0,
        last_beat_at: workers.last_beat_at,
        due: queue.due,
        late: queue.late,
        oldest_waiting_seconds: queue.oldest_waiting_seconds,
      },
      harm,
    },
  ];
};
