/** Which instrumentation one email gets. */
export interface TrackingChoice {
  opens: boolean;
  clicks: boolean;
}

const NONE: TrackingChoice = { opens: false, clicks: false };

/**
 * notifyd §6.5's opt-in rules. The project's `settings.tracking`: absent or null → opens and
 * clicks on marketing email; `false` → off; `{opens, clicks, applies_to: "all"}` → as given
 * (applies_to "all" includes transactional email). The request's `track` can only narrow the
 * project's choice (`false`, or `{opens: false}`), except that `true` or an object opts one
 * transactional email in, within what the project allows. A project that turned tracking off
 * cannot be re-enabled by a request.
 */
export function trackingFor(projectSetting: unknown, requestTrack: unknown, marketing: boolean): TrackingChoice {
  if (projectSetting === false) return NONE;
  const project =
    typeof projectSetting === 'object' && projectSetting !== null ? (projectSetting as Record<string, unknown>) : {};
  const allowed: TrackingChoice = { opens: project.opens !== false, clicks: project.clicks !== false };
  if (requestTrack === false) return NONE;
  const request =
    typeof requestTrack === 'object' && requestTrack !== null ? (requestTrack as Record<string, unknown>) : undefined;
  const optedIn = requestTrack === true || request !== undefined;
  if (!marketing && project.applies_to !== 'all' && !optedIn) return NONE;
  return {
    opens: allowed.opens && request?.opens !== false,
    clicks: allowed.clicks && request?.clicks !== false,
  };
}

/**
 * A project's `settings.tracking` as given (PATCH, notifyd 0.x's top-level `tracking`): a
 * boolean, or an object with boolean `opens` / `clicks` and `applies_to` "marketing" | "all".
 */
export function parseProjectTracking(value: unknown, field = 'tracking'): { value: unknown } | { error: string } {
  const error = `${field} must be true, false, or an object like {"opens": false, "clicks": true, "applies_to": "marketing"} (applies_to "marketing" or "all"); null restores the default`;
  if (typeof value === 'boolean') return { value };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error };
  for (const [k, v] of Object.entries(value)) {
    if ((k === 'opens' || k === 'clicks') && typeof v === 'boolean') continue;
    if (k === 'applies_to' && (v === 'marketing' || v === 'all')) continue;
    return { error };
  }
  return { value };
}
