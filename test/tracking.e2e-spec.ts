import { jest } from '@jest/globals';
import type { OutboundMessage } from '../src/connectors/connector.js';
import { ConnectorRegistry } from '../src/connectors/connector-registry.js';
import type { AppConfig } from '../src/config/app-config.js';
import { APP_CONFIG } from '../src/config/config.module.js';
import { linkSigningKeys } from '../src/governance/link-keys.js';
import { signTracking } from '../src/governance/tracking/tracking-token.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

describe('own open/click tracking', () => {
  let t: TestApp;
  let project: { id: string; key: string };
  let sent: OutboundMessage[];

  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'https://notify.acme.example' } });
    const email = t.notifyd.app.get(ConnectorRegistry).forChannel('email')!;
    const send = email.send.bind(email);
    jest.spyOn(email, 'send').mockImplementation(async (messages) => {
      sent.push(...messages.map((m) => ({ ...m })));
      return send(messages);
    });
  });
  beforeEach(async () => {
    sent = [];
    project = await t.createProject();
  });
  afterAll(() => t.close());

  const html =
    '<html><body><p>Hi</p><a href="https://shop.example/sale?id=7&amp;ref=mail">Shop</a> <a href="mailto:help@acme.example">Help</a></body></html>';
  const send = async (body: Record<string, unknown>) => {
    const res = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ to: 'jane@example.com', channels: ['email'], subject: 's', body_html: html, ...body });
    expect(res.status).toBe(200);
    await t.worker.drainOnce();
    return { id: res.body.job_ids[0] as string, html: sent.at(-1)!.bodyHtml! };
  };
  const pathOf = (url: string) => url.replace('https://notify.acme.example', '');
  const job = async (id: string) => (await t.db.sql(`SELECT opened_at, clicked_at FROM jobs WHERE id = $1`, [id]))[0];

  it('instruments marketing email, records the first open and click on the job, and redirects', async () => {
    const { id, html: out } = await send({ priority: 'bulk' });
    const link = /href="(https:\/\/notify\.acme\.example\/t\/c\/[^"]+)"/.exec(out)![1];
    const pixel = /<img src="(https:\/\/notify\.acme\.example\/t\/o\/[^"]+\.gif)"/.exec(out)![1];
    expect(out).toContain('href="mailto:help@acme.example"');
    expect(out.indexOf('<img')).toBeLessThan(out.indexOf('</body>'));
    expect(await job(id)).toEqual({ opened_at: null, clicked_at: null });

    const gif = await t.http.get(pathOf(pixel));
    expect(gif.status).toBe(200);
    expect(gif.headers['content-type']).toBe('image/gif');
    expect(gif.headers['cache-control']).toBe('no-store, private');
    expect(gif.body.length).toBe(43);
    const opened = (await job(id)).opened_at;
    expect(opened).not.toBeNull();
    await t.http.get(pathOf(pixel));
    expect((await job(id)).opened_at).toEqual(opened); // the first open is kept

    const click = await t.http.get(pathOf(link)).redirects(0);
    expect(click.status).toBe(302);
    expect(click.headers.location).toBe('https://shop.example/sale?id=7&ref=mail');
    expect((await job(id)).clicked_at).not.toBeNull();

    const events = await t.db.sql(
      `SELECT provider, event_type, payload FROM provider_events WHERE job_id = $1 ORDER BY received_at`,
      [id],
    );
    expect(events).toEqual([
      { provider: 'notifyd', event_type: 'opened', payload: {} },
      { provider: 'notifyd', event_type: 'clicked', payload: { host: 'shop.example' } },
    ]);
  });

  it('records one open and one click per job however often a public link is hit (no unbounded rows)', async () => {
    const { id, html: out } = await send({ priority: 'bulk' });
    const link = /href="(https:\/\/notify\.acme\.example\/t\/c\/[^"]+)"/.exec(out)![1];
    const pixel = /<img src="(https:\/\/notify\.acme\.example\/t\/o\/[^"]+\.gif)"/.exec(out)![1];
    // Anyone holding one email can replay its links: each hit must not add a row.
    for (let i = 0; i < 5; i++) {
      expect((await t.http.get(pathOf(pixel))).status).toBe(200);
      expect((await t.http.get(pathOf(link)).redirects(0)).status).toBe(302);
    }
    const counts = await t.db.sql(
      `SELECT event_type, count(*)::int AS n FROM provider_events WHERE job_id = $1 GROUP BY event_type ORDER BY event_type`,
      [id],
    );
    expect(counts).toEqual([
      { event_type: 'clicked', n: 1 },
      { event_type: 'opened', n: 1 },
    ]);
  });

  it('a signed link whose target is not a valid URL is a 404 (never a 500), and non-ASCII targets redirect encoded', async () => {
    const tenantHtml =
      '<html><body><a href="http://exa mple.com/x">Bad</a> <a href="https://shop.example/caf\u00e9/\u65e5\u672c">Shop</a></body></html>';
    const { id, html: out } = await send({ priority: 'bulk', body_html: tenantHtml });
    // A link signed before wrapping checked the URL (already in mailboxes) is a 404, not a 500.
    const key = linkSigningKeys(t.notifyd.app.get<AppConfig>(APP_CONFIG), 'tracking').current;
    const token = signTracking({ kind: 'c', jobId: id, projectId: project.id, url: 'http://exa mple.com/x' }, key);
    const old = await t.http.get(`/t/c/${token}`).redirects(0);
    expect(old.status).toBe(404);
    const links = [...out.matchAll(/href="(https:\/\/notify\.acme\.example\/t\/c\/[^"]+)"/g)].map((m) => m[1]);
    // The unparsable href is left as written (not wrapped), the other one is wrapped.
    expect(out).toContain('href="http://exa mple.com/x"');
    expect(links).toHaveLength(1);
    const click = await t.http.get(pathOf(links[0])).redirects(0);
    expect(click.status).toBe(302);
    expect(click.headers.location).toBe('https://shop.example/caf%C3%A9/%E6%97%A5%E6%9C%AC');
  });

  it('follows the opt-in rules: transactional untracked unless opted in; project off wins; request narrows', async () => {
    expect((await send({})).html).toBe(html);
    const optedIn = (await send({ track: true })).html;
    expect(optedIn).toContain('/t/c/');
    expect(optedIn).toContain('/t/o/');
    expect((await send({ priority: 'bulk', track: { opens: false } })).html).not.toContain('/t/o/');
    await t.http
      .patch(`/v1/admin/projects/${project.id}`)
      .set('X-Api-Key', 'test-admin-key-0123456789abcdef')
      .send({ settings: { tracking: false } })
      .expect(200);
    expect((await send({ priority: 'bulk', track: true })).html).toBe(html);
  });

  it('a forged click link is a 404 and a forged pixel still gets the GIF, recording nothing', async () => {
    const click = await t.http.get('/t/c/eyJhIjoxfQ.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA').redirects(0);
    expect(click.status).toBe(404);
    const gif = await t.http.get('/t/o/garbage.gif');
    expect(gif.status).toBe(200);
    expect(gif.body.length).toBe(43);
    const bad = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ to: 'a@example.com', channels: ['email'], body: 'x', track: { opens: 'yes' } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/track must be true, false or/);
  });
});
