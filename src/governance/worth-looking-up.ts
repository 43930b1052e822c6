/**
 * Which projects' keys are worth a per-key lookup (preferences, suppressions): those the probe
 * `projectsHolding` says hold any row (one small query over the distinct projects), or every
 * project when there is a single key, whose lookup costs what the probe does.
 */
export async function worthLookingUp(
  projectIds: readonly string[],
  keyCount: number,
  projectsHolding: (projectIds: string[]) => Promise<ReadonlySet<string>>,
): Promise<(projectId: string) => boolean> {
  if (keyCount < 2) return () => true;
  const holding = await projectsHolding([...new Set(projectIds)]);
  return (projectId) => holding.has(projectId);
}
