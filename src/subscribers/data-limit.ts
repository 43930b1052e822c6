/**
 * The most a subscriber's `data` may hold, as JSON bytes. Every send to the subscriber reads it
 * (addresses at admission, the profile for templates, segments scan it), and upserts merge into
 * it, so without a bound repeated calls could grow one row to hundreds of megabytes. A call's own
 * `data` is checked by the DTO (JSON.stringify); the merged value by the upsert statement
 * (PostgreSQL's jsonb text, which may be a little longer), which refuses the whole item.
 */
export const SUBSCRIBER_DATA_MAX_BYTES = 64 * 1024;

export const DATA_TOO_LARGE_HELP = `must be at most ${SUBSCRIBER_DATA_MAX_BYTES} bytes as JSON; keep large or growing values elsewhere and store a reference`;

export const MERGED_DATA_TOO_LARGE = `data would be over ${SUBSCRIBER_DATA_MAX_BYTES} bytes as JSON once merged with the stored data; nothing was written: store fewer or smaller values (a merge never removes a key, but setting one to null drops its value)`;
