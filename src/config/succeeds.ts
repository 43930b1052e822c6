/**
 * Whether `attempt` returns without throwing: the check for a value whose only validator is a
 * parser that throws (a CIDR range, a public key, what structuredClone can copy). It lives in
 * config, at the bottom of the import graph, because config validates such values and any
 * folder above may reuse it without a new import edge.
 */
export function succeeds(attempt: () => unknown): boolean {
  try {
    attempt();
    return true;
  } catch {
    return false;
  }
}
