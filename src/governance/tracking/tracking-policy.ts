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
  const project = typeof projectSetting === 'object' && projectSetting !== null ? (projectSetting as Record<string, unknown>) : {};
  const allowed: TrackingChoice = { opens: project.opens !== false, clicks: project.clicks !== false };
  if (requestTrack === false) return NONE;
  const request = typeof requestTrack === 'object' && requestTrack !== null ? (requestTrack as Record<string, unknown>) : undefined;
  const optedIn = requestTrack === true || request !== undefined;
  if (!marketing && project.applies_to !== 'all' && !optedIn) return NONE;
  return {
    opens: allowed.opens && request?.opens !== false,
    clicks: allowed.clicks && request?.clicks !== false,
  };
}
