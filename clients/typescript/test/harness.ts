// The running notifyd the suite talks to: `node scripts/with-notifyd.mjs` (repository root)
// starts one and sets NOTIFYD_URL and NOTIFYD_ADMIN_API_KEY.
export const NOTIFYD_URL = process.env.NOTIFYD_URL ?? '';
const ADMIN_KEY = process.env.NOTIFYD_ADMIN_API_KEY ?? '';
if (!NOTIFYD_URL || !ADMIN_KEY) {
  throw new Error('NOTIFYD_URL and NOTIFYD_ADMIN_API_KEY are unset: run the suite through `node scripts/with-notifyd.mjs npm --prefix clients/typescript test` from the repository root');
}

let counter = 0;

/** A fresh project through the admin API (each test its own, so rate limits do not leak). */
export async function createProject(options: { rateLimitPerMin?: number } = {}): Promise<{ id: string; key: string }> {
  const id = `ts-${process.pid}-${++counter}`;
  const response = await fetch(`${NOTIFYD_URL}/v1/admin/projects`, {
    method: 'POST',
    headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ id, name: `TS client ${id}`, ...(options.rateLimitPerMin ? { rate_limit_per_min: options.rateLimitPerMin } : {}) }),
  });
  const body = (await response.json()) as { project: { api_key: string } };
  if (response.status !== 201) throw new Error(`createProject: ${response.status} ${JSON.stringify(body)}`);
  return { id, key: body.project.api_key };
}

export async function until<T>(read: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
