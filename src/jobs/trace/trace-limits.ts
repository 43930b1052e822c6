// The trace's bounds, apart from its DTO: the service (loaded by worker replicas too, through
// JobsModule) reads them without loading class-validator.

/** Messages one trace answers at most, and the widest time range it reads (the jobs are read by created_at). */
export const TRACE_MAX_LIMIT = 200;
export const TRACE_MAX_RANGE_DAYS = 31;
export const TRACE_DEFAULT_RANGE_DAYS = 7;
