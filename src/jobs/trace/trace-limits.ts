// The trace's bounds, apart from its DTO: the service (loaded by worker replicas too, through
// JobsModule) reads them without loading class-validator.

/** Messages one trace answers at most, and the widest time range it reads (the jobs are read by created_at). */
export const TRACE_MAX_LIMIT = 200;
export const TRACE_MAX_RANGE_DAYS = 31;
export const TRACE_DEFAULT_RANGE_DAYS = 7;

/**
 * Attempts and provider events a trace shows per job, the newest (each job has its own bound, so
 * one job with thousands of them cannot crowd out the others); the message says how many older
 * ones it left out, and the job's own view (GET /v1/jobs/{id}, job_timeline) lists more.
 */
export const TRACE_ATTEMPTS_PER_JOB = 50;
export const TRACE_PROVIDER_EVENTS_PER_JOB = 50;

/** How far a trace counts one job's attempts or events to say how many it left out (an "omitted" count is at least the true one past it). */
export const TRACE_COUNT_CAP = 10_000;
