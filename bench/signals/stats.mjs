// Small numeric helpers of the signals benchmarks (bench/lib.mjs has the process and database ones).
/** The middle value; of an even count, the mean of the two middle ones (2 rounds: their mean, not the larger). */
export const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** A project with no API rate limit of its own (the benchmarks measure notifyd, not the limit). */
export async function benchProject(api, url, adminKey, id) {
  const { project } = await api(url, '/v1/admin/projects', adminKey, { id, name: id, rate_limit_per_min: 10_000_000 });
  return project.api_key;
}
