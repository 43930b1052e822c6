/**
 * The newest provider event (delivery webhook in) per provider within the last $1 seconds. The
 * BRIN index on received_at (provider_events_received_brin) keeps the scan to recent pages.
 */
export const LAST_PROVIDER_EVENTS = `
  SELECT provider, max(received_at) AS "lastEventAt"
    FROM provider_events
   WHERE received_at > now() - make_interval(secs => $1)
   GROUP BY provider`;
