import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from './helpers/chromium.js';
import { ADMIN_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

const SHOTS = join(process.cwd(), 'test-results', 'preference-center');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The subscriber preference center in real headless Chromium, reached as a subscriber reaches
 * it from a product: the <notifyd-inbox> component on a page of another origin shows a
 * "Preferences" link; the page it opens is checked with axe-core and against its CSP, a topic is
 * switched off and saved, the stored preference is read back, and the next send on that topic is
 * skipped. Screenshots go to test-results/preference-center/ (docs/PREFERENCES.md shows them).
 */
describe('preference center in Chromium', () => {
  let t: TestApp;
  let host: Server;
  let origin: string;
  let browser: Browser;
  let project: { id: string; key: string };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    host = createServer((req, res) => {
      const params = new URL(req.url ?? '/', 'http://x').searchParams;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      // The bell at the right of a header, as products place it (its panel opens leftwards).
      res.end(`<!doctype html><html lang="en"><head><title>Acme</title></head><body style="font-family:sans-serif">
        <header style="display:flex;justify-content:space-between;align-items:center"><h1>Acme</h1>
        <script src="${params.get('api')}/inbox/notifyd-inbox.js"></script>
        <notifyd-inbox api-base="${params.get('api')}" subscriber-id="ann" token="${params.get('token')}"></notifyd-inbox></header></body></html>`);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    t = await startTestApp({ env: { CORS_ORIGINS: origin, IN_APP_PROVIDER: 'inbox' } });
    project = await t.createProject();
    const settings = {
      preference_topics: [
        { id: 'orders', label: 'Order updates' },
        { id: 'tips', label: 'Tips and tricks' },
        { id: 'security', label: 'Security alerts', transactional: true },
      ],
    };
    await t.http
      .patch(`/v1/admin/projects/${project.id}`)
      .set('X-Api-Key', ADMIN_KEY)
      .send({ channels: ['email', 'sms', 'in_app'], settings })
      .expect(200);
    await t.http
      .post('/v1/subscribers')
      .set('X-Api-Key', project.key)
      .send({ id: 'ann', email: 'ann@example.com', phone: '+33611111111' })
      .expect(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await new Promise<void>((resolve) => host.close(() => resolve()));
  });

  const noSeriousViolations = async (page: Page) => {
    // Runtime.evaluate from the test is not page script: the page's CSP does not apply to it.
    await page.evaluate(AXE);
    const violations = await page.evaluate(async () => {
      const g = globalThis as any;
      const result = await g.axe.run(g.document, { resultTypes: ['violations'] });
      return result.violations.map((v: any) => ({ id: v.id, impact: v.impact }));
    });
    expect(violations.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  };

  it('opens from the inbox component, switches a topic off, stores it, and the next send on it is skipped', async () => {
    const token = (
      await t.http.post('/v1/auth/subscriber-token').set('X-Api-Key', project.key).send({ subscriber_id: 'ann' })
    ).body.token;
    const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
    const problems: string[] = [];
    context.on('page', (p) => {
      p.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      p.on('console', (msg) => {
        if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) problems.push(msg.text());
      });
    });
    const app = await context.newPage();
    await app.goto(`${origin}/?api=${encodeURIComponent(t.url)}&token=${encodeURIComponent(token)}`);
    await app.locator('notifyd-inbox [part=bell]').click();
    const link = app.locator('notifyd-inbox [part=preferences]');
    await link.waitFor({ state: 'visible' });
    expect(await link.getAttribute('href')).toMatch(new RegExp(`^${t.url}/p/p1\\.j\\.`));
    await app.screenshot({ path: join(SHOTS, 'inbox-link.png') });

    const [page] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await page.getByRole('heading', { name: 'Notification preferences' }).waitFor();
    const tipsBySms = page.getByRole('checkbox', { name: 'Tips and tricks — SMS' });
    expect(await tipsBySms.isChecked()).toBe(true);
    const security = page.getByRole('checkbox', { name: 'Security alerts — Email' });
    expect([await security.isChecked(), await security.isDisabled()]).toEqual([true, true]);
    await noSeriousViolations(page);
    await page.screenshot({ path: join(SHOTS, 'page.png'), fullPage: true });
    // Opening the page changed nothing.
    expect(await t.db.sql(`SELECT 1 FROM subscriber_preferences`)).toEqual([]);

    // Keyboard: focus the box, Space switches it, then the save button.
    await tipsBySms.focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await page.getByRole('status').filter({ hasText: 'Your preferences are saved.' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Tips and tricks — SMS' }).isChecked()).toBe(false);
    await noSeriousViolations(page);
    await page.screenshot({ path: join(SHOTS, 'saved.png'), fullPage: true });

    expect(
      await t.db.sql(`SELECT subscriber_id, channel, scope_kind, scope, enabled FROM subscriber_preferences`),
    ).toEqual([{ subscriber_id: 'ann', channel: 'sms', scope_kind: 'topic', scope: 'tips', enabled: false }]);
    const tip = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channel: 'sms', subscriber_id: 'ann', topic: 'tips', body: 'A tip' });
    expect(tip.body.skipped).toEqual([
      expect.objectContaining({ reason: "subscriber opted out of topic 'tips' on sms" }),
    ]);
    const order = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channel: 'sms', subscriber_id: 'ann', topic: 'orders', body: 'Shipped' });
    expect(order.body.job_ids).toHaveLength(1);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
