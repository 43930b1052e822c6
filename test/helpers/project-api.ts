import type { TestApp } from './test-app.js';

/** Requests as one project: its key as X-Api-Key on every call. */
export function projectApi(t: TestApp, key: string) {
  return {
    post: (path: string, body: object) => t.http.post(path).set('X-Api-Key', key).send(body),
    get: (path: string) => t.http.get(path).set('X-Api-Key', key),
    del: (path: string) => t.http.delete(path).set('X-Api-Key', key),
  };
}

/** A job's whole row, straight from the table (columns the API does not show included). */
export async function jobRow(t: TestApp, id: string): Promise<Record<string, any>> {
  return (await t.db.sql(`SELECT * FROM jobs WHERE id = $1`, [id]))[0];
}
