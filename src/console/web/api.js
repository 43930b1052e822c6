/**
 * The console's only door to notifyd: the public API, authenticated by the HttpOnly session
 * cookie (the page never sees it). Every change carries the session's CSRF token, which lives
 * in this module's memory only (never localStorage): a reload asks GET /console/session again.
 */
let csrfToken = null;

export class ApiFailure extends Error {
  constructor(status, body) {
    super(body?.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.error ?? 'http_error';
  }
}

async function call(method, path, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiFailure(response.status, data);
  return data;
}

export const api = {
  get: (path) => call('GET', path),
  post: (path, body = {}) => call('POST', path, body),
  put: (path, body) => call('PUT', path, body),
  del: (path) => call('DELETE', path),
};

/** The session the cookie holds, or null when signed out. */
export async function currentSession() {
  try {
    const session = await call('GET', '/console/session');
    csrfToken = session.csrf_token;
    return session;
  } catch (err) {
    if (err instanceof ApiFailure && err.status === 401) return null;
    throw err;
  }
}

export async function signIn(key) {
  const session = await call('POST', '/console/session', { key });
  csrfToken = session.csrf_token;
  return session;
}

export async function signOut() {
  await call('DELETE', '/console/session');
  csrfToken = null;
}

/** A query string from the non-empty fields of an object. */
export function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== '' && value !== undefined && value !== null) search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}
