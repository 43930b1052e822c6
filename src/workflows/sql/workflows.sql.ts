export const WORKFLOW_COLUMNS = `
  id, project_id AS "projectId", name, description, trigger_event AS "triggerEvent", steps, enabled,
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/**
 * Create or replace a workflow; running runs keep the steps they started with: new steps make a
 * new version (the trigger workflows_version, migration 0092; it versions every writer's steps)
 * and a run records the version it started on. The same steps keep the version. Primary key. A
 * new one is not inserted (no row) when the project has $8 workflows already; replacing one
 * always works. Two creates in the same instant may overshoot by as many as run at once.
 */
export const UPSERT_WORKFLOW = `
  INSERT INTO workflows AS w (project_id, id, name, description, trigger_event, steps, enabled)
  SELECT $1, $2, $3, $4, $5, $6::jsonb, $7::boolean
   WHERE (SELECT count(*) FROM workflows WHERE project_id = $1) < $8
      OR EXISTS (SELECT 1 FROM workflows WHERE project_id = $1 AND id = $2)
  ON CONFLICT (project_id, id) DO UPDATE
     SET name = EXCLUDED.name, description = EXCLUDED.description, trigger_event = EXCLUDED.trigger_event,
         steps = EXCLUDED.steps, enabled = EXCLUDED.enabled, updated_at = now()
  RETURNING ${WORKFLOW_COLUMNS}, (xmax = 0) AS created`;

export const FIND_WORKFLOW = `SELECT ${WORKFLOW_COLUMNS} FROM workflows WHERE project_id = $1 AND id = $2`;

export const LIST_WORKFLOWS = `SELECT ${WORKFLOW_COLUMNS} FROM workflows WHERE project_id = $1 ORDER BY id LIMIT 1000`;

/** Deletes a workflow, its runs, versions, digests and throttles (cascade). */
export const DELETE_WORKFLOW = `DELETE FROM workflows WHERE project_id = $1 AND id = $2 RETURNING id`;

/**
 * Starts one run per enabled workflow of the project listening to the event, in one statement
 * (workflows_trigger_idx). A run records the workflow's current version, not a copy of its
 * steps (up to 5 MB): the runs of one event share one copy however many there are. A replayed
 * idempotency key starts nothing and returns the runs it started the first time.
 * $1 project $2 event $3 subscriber $4 payload $5 idempotency key
 */
export const TRIGGER = `
  WITH started AS (
    INSERT INTO workflow_runs (project_id, workflow_id, subscriber_id, trigger_event, payload, version_id, idempotency_key)
    SELECT w.project_id, w.id, $3, $2, $4::jsonb, w.version_id, $5
      FROM workflows w
     WHERE w.project_id = $1 AND w.trigger_event = $2 AND w.enabled
    ON CONFLICT (project_id, workflow_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
    RETURNING id, workflow_id
  )
  SELECT id, workflow_id AS "workflowId", true AS created FROM started
  UNION ALL
  SELECT r.id, r.workflow_id, false FROM workflow_runs r
   WHERE $5::text IS NOT NULL AND r.project_id = $1 AND r.idempotency_key = $5 AND r.trigger_event = $2
     AND NOT EXISTS (SELECT 1 FROM started s WHERE s.workflow_id = r.workflow_id)`;

/**
 * Starts a run of one enabled workflow ($2), on its current version, for subscriber $3 from a
 * trigger_workflow step of another run: $4 payload, $5 idempotency key (the step's
 * `wf-<run>-<step>-<visit>`), $6 the new run's context (its depth and parent). A pass retried
 * after a crash starts nothing and finds the run it started the first time. Primary key of
 * workflows; workflow_runs_idempotency_idx.
 * No row: the workflow was deleted or disabled since the definition named it.
 */
export const TRIGGER_FROM_STEP = `
  WITH started AS (
    INSERT INTO workflow_runs (project_id, workflow_id, subscriber_id, trigger_event, payload, version_id, idempotency_key, context)
    SELECT w.project_id, w.id, $3, w.trigger_event, $4::jsonb, w.version_id, $5, $6::jsonb
      FROM workflows w
     WHERE w.project_id = $1 AND w.id = $2 AND w.enabled
    ON CONFLICT (project_id, workflow_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
    RETURNING id
  )
  SELECT id, true AS created FROM started
  UNION ALL
  SELECT r.id, false FROM workflow_runs r
   WHERE r.project_id = $1 AND r.workflow_id = $2 AND r.idempotency_key = $5 AND NOT EXISTS (SELECT 1 FROM started)`;
