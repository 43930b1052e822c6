import { createHash } from 'node:crypto';
import { StreamRevocations } from '../../src/inbox/auth/stream-revocations.js';
import { SseClient } from '../helpers/sse-client.js';
import { ADMIN_KEY, startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Review of the inbox doors: a stream opened with a project key (Authorization or X-Api-Key
 * header) stayed open, and kept receiving the subscriber's messages, after that key was revoked
 * (rotate-key then revoke-secondary) or its project deleted; only subscriber-token streams were
 * re-checked. Every door now honours a revoked key: REST refuses it, and its open streams end.
 */
describe('an inbox stream opened with a project key ends when the key is revoked', () => {
  let t: TestApp;
  const streams: SseClient[] = [];

  beforeAll(async () => {
    t = await startTestApp({ env: { INBOX_HEARTBEAT_SECS: '1' } });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t.close();
  });

  const open = async (key: string, subscriber = 'u1') => {
    const stream = await SseClient.open(`${t.url}/v1/inbox/${subscriber}/stream`, { 'X-Api-Key': key });
    streams.push(stream);
    expect(stream.status).toBe(200);
    await stream.next((e) => e.event === 'counts', 20_000);
    return stream;
  };
  /** 'ended' once the server closed the stream, 'open' if it is still open after `ms` (generous: a loaded machine). */
  const settle = (stream: SseClient, ms: number) =>
    Promise.race([
      stream.ended.then(() => 'ended'),
      new Promise<string>((resolve) => setTimeout(() => resolve('open'), ms)),
    ]);

  it('rotate-key keeps the old key (secondary) and its stream; revoke-secondary ends that stream only', async () => {
    const p = await t.createProject();
    const old = await open(p.key);
    const rotated = await t.http.post(`/v1/admin/projects/${p.id}/rotate-key`).set('X-Api-Key', ADMIN_KEY);
    expect(rotated.status).toBe(200);
    const newKey = rotated.body.new_api_key as string;
    expect(newKey).toMatch(/^sk_/);
    const current = await open(newKey);
    // Still the secondary key: its stream is left alone.
    expect(await settle(old, 1_500)).toBe('open');

    expect((await t.http.post(`/v1/admin/projects/${p.id}/revoke-secondary`).set('X-Api-Key', ADMIN_KEY)).status).toBe(
      200,
    );
    expect((await t.http.get('/v1/inbox/u1/unread-count').set('X-Api-Key', p.key)).status).toBe(401);
    expect(await settle(old, 20_000)).toBe('ended');
    expect(await settle(current, 1_500)).toBe('open');
  });

  it('watches a project-key stream by the hash of its key, not the key itself', async () => {
    const p = await t.createProject();
    const stream = await open(p.key, 'u3');
    // What StreamRevocations holds for the life of the stream (a private map: read here on purpose).
    const watched = (t.notifyd.app.get(StreamRevocations) as any).watched as Map<string, Map<unknown, any>>;
    const credentials = [...(watched.get(p.id)?.values() ?? [])].map((w) => w.credential);
    expect(credentials).toEqual([{ keyHash: createHash('sha256').update(p.key).digest('hex') }]);
    expect(JSON.stringify(credentials)).not.toContain(p.key);
    stream.close();
  });

  it('deleting the project ends its project-key streams', async () => {
    const p = await t.createProject();
    const stream = await open(p.key, 'u2');
    expect((await t.http.delete(`/v1/admin/projects/${p.id}`).set('X-Api-Key', ADMIN_KEY)).status).toBe(200);
    expect(await settle(stream, 20_000)).toBe('ended');
  });
});
