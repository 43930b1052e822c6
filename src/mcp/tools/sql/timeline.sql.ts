/**
 * Audited actions on one job (cancel, retry, send-test…), oldest first. Served by
 * audit_log_project_idx (project_id, id DESC): operators' actions have no project, so both keys are read.
 */
export const JOB_AUDIT_EVENTS = `
  SELECT created_at, action, actor
    FROM audit_log
   WHERE (project_id = $1 OR project_id IS NULL) AND resource = $2
   ORDER BY id
   LIMIT 100`;
