import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from './helpers/chromium.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The <notifyd-inbox> web component in real headless Chromium, embedded in a page of another
 * origin (as a product would): a message sent through the API appears without a reload, the
 * badge counts it, and marking it read in one tab updates the other tab.
 */
describe('inbox web component in Chromium', () => {
  let t: TestApp;
  let page: Server;
  let origin: string;
  let browser: Browser;
  let project: { id: string; key: string };

  beforeAll(async () => {
    page = createServer((req, res) => {
      const params = new URL(req.url ?? '/', 'http://x').searchParams;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="${params.get('lang') ?? 'en'}"><body>
        <h1>Acme</h1>
        <script src="${params.get('api')}/inbox/notifyd-inbox.js"></script>
        <notifyd-inbox api-base="${params.get('api')}" subscriber-id="${params.get('sid')}" token="${params.get('token')}"></notifyd-inbox>
      </body></html>`);
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    t = await startTestApp({ env: { CORS_ORIGINS: origin, IN_APP_PROVIDER: 'inbox' } });
    project = await t.createProject();
    await t.http.post('/v1/subscribers').set('X-Api-Key', project.key).send({ id: 'jane' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await new Promise<void>((resolve) => page.close(() => resolve()));
  });

  const openTab = async (token: string): Promise<Page> => {
    const tab = await (await browser.newContext()).newPage();
    tab.on('pageerror', (err) => console.error(`page error: ${err.message}`));
    await tab.goto(`${origin}/?api=${encodeURIComponent(t.url)}&sid=jane&token=${encodeURIComponent(token)}`);
    await tab.locator('notifyd-inbox [part=empty]').waitFor({ state: 'attached' });
    return tab;
  };
  const badge = (tab: Page) => tab.locator('notifyd-inbox [part=badge]');

  it('shows a sent message live, counts it, and a read in one tab reaches the other', async () => {
    const token = (
      await t.http.post('/v1/auth/subscriber-token').set('X-Api-Key', project.key).send({ subscriber_id: 'jane' })
    ).body.token;
    const [a, b] = [await openTab(token), await openTab(token)];
    for (const tab of [a, b]) expect(await badge(tab).isHidden()).toBe(true);
    // The streams are open once the server holds them; only then send.
    await waitFor(async () => (await t.db.sql(`SELECT count(*)::int AS n FROM inbox_stream_tickets`))[0].n === 0);

    const sent = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({
        channels: ['in_app'],
        subscriber_id: 'jane',
        subject: 'Order shipped',
        body: 'Your order A-1042 is on its way.',
      });
    expect(sent.status).toBe(200);
    await t.worker.drainOnce();

    for (const tab of [a, b]) {
      await tab
        .locator('notifyd-inbox [part=item]', { hasText: 'Your order A-1042 is on its way.' })
        .waitFor({ state: 'attached' });
      await expectText(() => badge(tab).textContent(), '1');
    }
    await a.locator('notifyd-inbox [part=bell]').click();
    await a.locator('notifyd-inbox [part=item]', { hasText: 'A-1042' }).click();
    for (const tab of [a, b]) {
      await badge(tab).waitFor({ state: 'hidden' });
      await tab
        .locator('notifyd-inbox [part=item][data-read=true]', { hasText: 'A-1042' })
        .waitFor({ state: 'attached' });
    }
    const [row] = await t.db.sql(`SELECT read_at, seen_at FROM inbox_messages WHERE subscriber_id = 'jane'`);
    expect(row.read_at).not.toBeNull();
    expect(row.seen_at).not.toBeNull();
  }, 90_000);

  it('issue 26: a page whose origin CORS refuses shows a visible error in its language (an SVG bell with "!"), not an empty bell', async () => {
    const token = (
      await t.http.post('/v1/auth/subscriber-token').set('X-Api-Key', project.key).send({ subscriber_id: 'jane' })
    ).body.token;
    // The same page server by another name: http://localhost:<port> is not in CORS_ORIGINS.
    const refused = origin.replace('127.0.0.1', 'localhost');
    const tab = await (await browser.newContext()).newPage();
    await tab.goto(`${refused}/?api=${encodeURIComponent(t.url)}&sid=jane&lang=fr&token=${encodeURIComponent(token)}`);
    await tab.waitForFunction(
      `document.querySelector('notifyd-inbox')?.shadowRoot?.querySelector('[part=error]')?.hasAttribute('hidden') === false`,
      undefined,
      { timeout: 10_000 },
    );
    const error = tab.locator('notifyd-inbox [part=error]');
    expect(await error.textContent()).toContain('Les notifications sont indisponibles');
    expect(await error.textContent()).toContain(`add ${refused} to CORS_ORIGINS`);
    expect(await badge(tab).textContent()).toBe('!');
    expect(await tab.locator('notifyd-inbox [part=bell] svg').count()).toBe(1);
    expect(await tab.locator('notifyd-inbox [part=empty]').count()).toBe(0);
  });

  it('issue 26: tokenProvider replaces a refused token and the inbox loads', async () => {
    const token = (
      await t.http.post('/v1/auth/subscriber-token').set('X-Api-Key', project.key).send({ subscriber_id: 'jane' })
    ).body.token;
    const tab = await (await browser.newContext()).newPage();
    // The first token is garbage; the page's provider (set once the page is parsed: before or
    // after the refusal, either works) hands the real one.
    await tab.addInitScript(
      `document.addEventListener('DOMContentLoaded', () => { document.querySelector('notifyd-inbox').tokenProvider = async () => ${JSON.stringify(token)}; });`,
    );
    await tab.goto(`${origin}/?api=${encodeURIComponent(t.url)}&sid=jane&token=not-a-token`);
    await tab.waitForFunction(
      `document.querySelector('notifyd-inbox')?.getAttribute('token') !== 'not-a-token'`,
      undefined,
      { timeout: 10_000 },
    );
    await tab.locator('notifyd-inbox [part=item]').first().waitFor({ state: 'attached' });
  });
});

async function waitFor(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function expectText(read: () => Promise<string | null>, expected: string, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  let last: string | null = null;
  while ((last = await read()) !== expected) {
    if (Date.now() > until) throw new Error(`expected "${expected}", still "${last}"`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
