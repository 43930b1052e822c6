export const RUN_COLUMNS = `
  id, project_id AS "projectId", workflow_id AS "workflowId", subscriber_id AS "subscriberId",
  trigger_event AS "triggerEvent", payload, status, current_step AS "currentStep", run_at AS "runAt",
  attempts, errors, context, history, outcome, error, created_at AS "createdAt", updated_at AS "updatedAt",
  finished_at AS "finishedAt", created_at::text AS "createdKey"`;

/**
 * Claim up to $1 due runs (pending, or waiting whose delay/digest window ended), oldest due
 * first, skipping rows another engine holds; workflow_runs_claim_idx. `attempts` becomes the
 * fence of this claim. Not joined to the version: the engine reads a version's steps once and
 * caches them (VERSION_STEPS). `steps` is set only on runs started before versions (0092).
 */
export const CLAIM_RUNS = `
  WITH picked AS MATERIALIZED (
    SELECT id FROM workflow_runs
     WHERE status IN ('pending','waiting') AND run_at <= now()
     ORDER BY run_at LIMIT $1
     FOR UPDATE SKIP LOCKED
  )
  UPDATE workflow_runs r
     SET status = 'processing', attempts = r.attempts + 1, claimed_at = now()
   WHERE r.id = ANY(ARRAY(SELECT id FROM picked))
  RETURNING r.id, r.project_id AS "projectId", r.workflow_id AS "workflowId", r.subscriber_id AS "subscriberId",
            r.payload, r.steps, r.version_id::text AS "versionId", r.current_step AS "currentStep", r.attempts, r.errors, r.context, r.history`;

/**
 * Progress of a run inside a step's own transaction (throttle, digest), fenced by the claim:
 * no row means the run was cancelled or reaped meanwhile, and the caller rolls back. A step
 * that ends the run ($6 status, $7 outcome) ends it here, atomically with its side effect.
 */
export const SAVE_PROGRESS = `
  UPDATE workflow_runs
     SET current_step = $3, context = $4, history = $5, updated_at = now(),
         status = COALESCE($6, status), outcome = COALESCE($7, outcome),
         finished_at = CASE WHEN $6::text IS NOT NULL THEN now() ELSE finished_at END,
         claimed_at = CASE WHEN $6::text IS NOT NULL THEN NULL ELSE claimed_at END
   WHERE id = $1 AND attempts = $2 AND status = 'processing'`;

/**
 * Where a batch of runs stands after a pass, one statement for the batch, fenced by
 * (id, attempts, processing). $1 id[]; $2 a JSON object keyed by id: {a: attempts, s: status,
 * i: current step, t: run_at, c: context, h: history, o: outcome, e: error, n: errors}.
 * Primary-key access only (no join to unnest: see the jobs finalise).
 */
const V = `($2::jsonb -> w.id::text)`;
export const FINALISE_RUNS = `
  UPDATE workflow_runs w
     SET status = ${V} ->> 's', current_step = (${V} ->> 'i')::int,
         run_at = COALESCE((${V} ->> 't')::timestamptz, w.run_at), claimed_at = NULL,
         context = ${V} -> 'c', history = ${V} -> 'h', outcome = ${V} ->> 'o', error = ${V} ->> 'e',
         errors = (${V} ->> 'n')::int, updated_at = now(),
         finished_at = CASE WHEN ${V} ->> 's' IN ('completed','failed') THEN now() END
   WHERE w.id = ANY($1::uuid[]) AND w.attempts = (${V} ->> 'a')::int AND w.status = 'processing'`;

/** Runs whose engine died (lease $1 s) are due again now. Bounded by $2; workflow_runs_processing_idx. */
export const REAP_RUNS = `
  WITH expired AS (
    SELECT id FROM workflow_runs
     WHERE status = 'processing' AND claimed_at < now() - make_interval(secs => $1)
     ORDER BY claimed_at LIMIT $2 FOR UPDATE SKIP LOCKED
  )
  UPDATE workflow_runs SET status = 'pending', run_at = now(), claimed_at = NULL
   WHERE id = ANY(ARRAY(SELECT id FROM expired))`;

/** Retention: finished runs created before $1, at most $2 per statement. */
export const PURGE_RUNS = `
  WITH doomed AS (
    SELECT id FROM workflow_runs WHERE created_at < $1 AND status IN ('completed','failed','cancelled') LIMIT $2
  )
  DELETE FROM workflow_runs WHERE id = ANY(ARRAY(SELECT id FROM doomed))`;

/** The steps of versions $1 (bigint[]), with their size as text (the engine's cache is bounded by it). Primary key. */
export const VERSION_STEPS = `
  SELECT id::text AS id, steps, octet_length(steps::text) AS bytes FROM workflow_versions WHERE id = ANY($1::bigint[])`;

/**
 * Maintenance: versions that are no longer their workflow's current one and that no run reads
 * (unfinished, or finished and kept until PURGE_RUNS), at most $1 per statement; run after
 * PURGE_RUNS (and also when retention is off: a version no run ever started on goes too).
 * Only once a newer version has existed for a minute: a trigger whose statement read the old one
 * as current began before the newer one committed and has long inserted its run, so the delete
 * never races a run starting on the version (the foreign keys would fail that trigger).
 * workflow_runs_version_idx for the runs, workflow_versions_workflow_idx for the newer version.
 */
export const PRUNE_VERSIONS = `
  WITH doomed AS (
    SELECT v.id FROM workflow_versions v
      JOIN workflows w ON w.project_id = v.project_id AND w.id = v.workflow_id
     WHERE v.id <> w.version_id
       AND EXISTS (SELECT 1 FROM workflow_versions n
                    WHERE n.project_id = v.project_id AND n.workflow_id = v.workflow_id AND n.id > v.id
                      AND n.created_at < now() - interval '1 minute')
       AND NOT EXISTS (SELECT 1 FROM workflow_runs r WHERE r.version_id = v.id)
     LIMIT $1
     FOR UPDATE OF v SKIP LOCKED
  )
  DELETE FROM workflow_versions WHERE id = ANY(ARRAY(SELECT id FROM doomed))`;

/**
 * A project's runs, newest first, filtered in SQL (workflow, subscriber, status), keyset after
 * ($5, $6); workflow_runs_project_idx.
 */
export const LIST_RUNS = `
  SELECT ${RUN_COLUMNS} FROM workflow_runs
   WHERE project_id = $1
     AND ($2::text IS NULL OR workflow_id = $2)
     AND ($3::text IS NULL OR subscriber_id = $3)
     AND ($4::text IS NULL OR status = $4)
     AND ($5::timestamptz IS NULL OR (created_at, id) < ($5::timestamptz, $6::uuid))
   ORDER BY created_at DESC, id DESC
   LIMIT $7`;

export const FIND_RUN = `SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE id = $1 AND project_id = $2`;

/**
 * Cancels a run that has not finished; a digest it opened is cancelled with it (its merged
 * events are dropped: the run that would have sent them is gone). Primary key.
 */
export const CANCEL_RUN = `
  WITH run AS (
    UPDATE workflow_runs SET status = 'cancelled', finished_at = now(), updated_at = now(), claimed_at = NULL, outcome = 'cancelled'
     WHERE id = $1 AND project_id = $2 AND status IN ('pending','processing','waiting')
    RETURNING id
  ), digests AS (
    UPDATE workflow_digests SET status = 'cancelled', closed_at = now()
     WHERE leader_run_id IN (SELECT id FROM run) AND status = 'open'
    RETURNING id
  )
  SELECT id, (SELECT count(*) FROM digests)::int AS "digestsCancelled" FROM run`;
