/*
 * The shared rate-limit counts (table rate_limit_counts, one row per scope × window × process).
 * Each process writes only its own rows, once per tick, never per request.
 */

/**
 * One tick of one process: writes its counts for window $1 (replica $2; scopes $3, counts $4;
 * absolute values, so a retry is harmless), then returns, for every scope in $5, what the other
 * processes admitted in that window, and the database's clock. Primary key (scope,
 * window_start, replica) for both the upsert and the read.
 */
export const SYNC_RATE_COUNTS = `
  WITH written AS (
    INSERT INTO rate_limit_counts (scope, window_start, replica, admitted)
    SELECT w.scope, $1::timestamptz, $2::uuid, w.admitted FROM unnest($3::text[], $4::int[]) AS w(scope, admitted)
    ON CONFLICT (scope, window_start, replica) DO UPDATE SET admitted = EXCLUDED.admitted
  )
  SELECT s.scope, COALESCE(sum(c.admitted), 0)::int AS others,
         (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS "dbNowMs"
    FROM unnest($5::text[]) AS s(scope)
    LEFT JOIN rate_limit_counts c ON c.scope = s.scope AND c.window_start = $1::timestamptz AND c.replica <> $2::uuid
   GROUP BY s.scope`;

/** Deletes windows that ended before $1 (every process's, dead ones too). A sequential scan: the table holds about two windows of rows. */
export const PURGE_RATE_COUNTS = `DELETE FROM rate_limit_counts WHERE window_start < $1::timestamptz`;
