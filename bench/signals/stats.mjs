// Small numeric helpers of the signals benchmarks (bench/lib.mjs has the process and database ones).
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** A project with no API rate limit of its own (the benchmarks measure notifyd, not the limit). */
export async function benchProject(api, url, adminKey, id) {
  const { project } = await api(url, '/v1/admin/projects', adminKey, { id, name: id, rate_limit_per_min: 10_000_000 });
  return project.api_key;
}
