/**
 * Checks of project settings whose rules live in higher modules: governance registers the
 * send window's and tracking's when it starts, so PATCH /v1/admin/projects/:id can validate
 * notifyd 0.x's top-level `send_window` and `tracking` without the projects module importing
 * governance. A rule returns the stored form, or a message naming the field and the fix.
 */
export type SettingRule = (value: unknown, field: string) => { value: unknown } | { error: string };

const rules = new Map<string, SettingRule>();

export function registerSettingRule(key: string, rule: SettingRule): void {
  rules.set(key, rule);
}

export function checkSetting(key: string, value: unknown): { value: unknown } | { error: string } {
  const rule = rules.get(key);
  return rule
    ? rule(value, key)
    : { error: `${key} cannot be checked by this process (its module is not loaded); set it through its own route` };
}
