const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a value is a UUID (any version, any case): the shape of every id notifyd makes (jobs,
 * batches, caps, suppressions, devices, runs, routes, connections). A path id that is not one is
 * answered 404 without a query (PostgreSQL would refuse it as `uuid` with a 500).
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
