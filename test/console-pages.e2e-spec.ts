import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { WorkflowEngine } from '../src/workflows/engine/workflow-engine.js';
import { launchChromium } from './helpers/chromium.js';
import { expectNoSeriousViolations, mutatingControls, signInConsole, visitConsole } from './helpers/console-page.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

const SHOTS = join(process.cwd(), 'test-results', 'console');

/**
 * The console's Subscribers, Templates, Webhooks and Workflows pages, and the live Lanes page, in
 * real headless Chromium. Each page shows the data for the admin and the read-only session, with
 * no serious axe-core violation and no CSP violation; the read-only session sees no Save or
 * Redeliver; a template edit changes the preview (rendered by the API); the admin saves a variant
 * and redelivers a failed webhook delivery; a lane paused through the API shows up on the open
 * Lanes page without a reload. Screenshots go to test-results/console/ (docs/CONSOLE.md shows them).
 */
describe('operator console pages in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let hookId: string;
  let runId: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // The endpoint's URL is never called (an api replica does not deliver): loopback is allowed only so it can be registered.
    t = await startTestApp({ env: { OUTBOUND_ALLOW_LOOPBACK: 'true' } });
    const project = await t.createProject('acme');
    const as = (method: 'post' | 'put', path: string, body: object) =>
      t.http[method](path).set('X-Api-Key', project.key).send(body);
    const hook = await as('post', '/v1/webhooks', {
      url: 'http://127.0.0.1:9/hooks/notifyd',
      events: ['job.queued'],
      description: 'orders',
    });
    expect(hook.status).toBe(201);
    hookId = hook.body.id;
    for (const [id, email, first] of [
      ['u_jane', 'jane@example.com', 'Jane'],
      ['u_omar', 'omar@example.com', 'Omar'],
    ]) {
      expect((await as('post', '/v1/subscribers', { id, email, first_name: first, locale: 'en' })).status).toBe(200);
    }
    // 26 subscribers: the console shows 25 a page, so the last one is on page 2.
    const more = Array.from({ length: 24 }, (_, i) => ({
      id: `u_${String(i).padStart(2, '0')}`,
      first_name: `Reader ${i}`,
    }));
    expect((await as('post', '/v1/subscribers/bulk', { subscribers: more })).status).toBe(200);
    expect(
      (
        await as('put', '/v1/subscribers/u_jane/preferences', {
          preferences: [
            { channel: 'email', topic: 'tips', enabled: false },
            { channel: 'sms', enabled: false },
          ],
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await as('post', '/v1/templates', {
          id: 'order_shipped',
          channel: 'email',
          subject: 'Order {{ order_id }} shipped',
          body: 'Hi {{ name }}, order {{ order_id }} is on its way.',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await as('post', '/v1/templates', {
          id: 'order_shipped',
          channel: 'email',
          locale: 'es',
          subject: 'Pedido {{ order_id }} enviado',
          body: 'Hola {{ name }}, tu pedido {{ order_id }} está en camino.',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await as('post', '/v1/workflows', {
          id: 'welcome',
          name: 'Welcome',
          trigger_event: 'user.signed_up',
          steps: [{ type: 'send', channel: 'email', subject: 'Welcome', body: 'Welcome {{ name }}' }],
        })
      ).status,
    ).toBe(200);
    const run = await as('post', '/v1/workflows/trigger', {
      event: 'user.signed_up',
      subscriber_id: 'u_jane',
      payload: { name: 'Jane' },
    });
    runId = run.body.workflow_runs[0];
    await t.notifyd.app.get(WorkflowEngine).drainOnce();
    expect(
      (
        await as('post', '/v1/send', {
          channels: ['email'],
          to: 'omar@example.com',
          subject: 'Order shipped',
          body: 'On its way.',
        })
      ).status,
    ).toBe(200);
    await t.worker.drainOnce();
    // One delivery as the sender leaves it after its last attempt failed (the api replica sends none).
    await t.db.sql(
      `UPDATE webhook_deliveries SET status = 'failed', attempts = max_attempts, last_status_code = 503, last_error = 'HTTP 503' WHERE id = (SELECT id FROM webhook_deliveries ORDER BY created_at LIMIT 1)`,
    );
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('the read-only session reads subscribers, templates, webhooks and workflows, sees no Save or Redeliver, and still previews an edit', async () => {
    const { context, page, problems } = await signInConsole(browser, t.url, READONLY_KEY);

    await visitConsole(page, t.url, '#/subscribers', 'Subscribers');
    await page.locator('tr[data-subscriber]').first().waitFor();
    expect(await page.locator('tr[data-subscriber]').count()).toBe(25);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.locator('caption', { hasText: 'Page 2: 1 subscribers' }).waitFor();
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.locator('caption', { hasText: 'Page 1: 25 subscribers' }).waitFor();
    await page.getByLabel('Search', { exact: true }).fill('example.com');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('caption', { hasText: 'Page 1: 2 subscribers' }).waitFor();
    expect(await page.locator('tr[data-subscriber="u_jane"]').textContent()).not.toContain('jane@example.com');
    await page.getByLabel('Search', { exact: true }).fill('omar');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('tr[data-subscriber="u_jane"]').waitFor({ state: 'detached' });
    expect(await page.locator('tr[data-subscriber]').count()).toBe(1);
    await expectNoSeriousViolations(page, 'subscribers');
    await page.screenshot({ path: join(SHOTS, 'subscribers.png'), fullPage: true });
    expect(await mutatingControls(page)).toBe(0);

    await visitConsole(page, t.url, '#/subscribers/acme/u_jane', /Subscriber/);
    await page.locator('tr[data-preference]').first().waitFor();
    expect(await page.locator('tr[data-preference]').count()).toBe(2);
    expect(await page.locator('tr[data-preference="email/topic/tips"]').textContent()).toContain('opted out');
    await expectNoSeriousViolations(page, 'subscriber');
    await page.screenshot({ path: join(SHOTS, 'subscriber.png'), fullPage: true });
    expect(await mutatingControls(page)).toBe(0);

    await visitConsole(page, t.url, '#/templates', 'Templates');
    await page.locator('tr[data-template="order_shipped"]').first().waitFor();
    expect(await page.locator('tr[data-template="order_shipped"]').count()).toBe(2);
    await expectNoSeriousViolations(page, 'templates');
    await page.screenshot({ path: join(SHOTS, 'templates.png'), fullPage: true });
    expect(await mutatingControls(page)).toBe(0);

    await page.locator('tr[data-template="order_shipped"] a').first().click();
    await page.locator('[data-preview-body]').waitFor();
    await page.getByLabel('Sample variables (JSON)').fill('{"name": "Ana", "order_id": "B-7"}');
    await page.locator('[data-preview-body]', { hasText: 'Hi Ana, order B-7 is on its way.' }).waitFor();
    await page.getByLabel('Body', { exact: true }).fill('Order {{ order_id }} left the warehouse, {{ name }}.');
    await page.locator('[data-preview-body]', { hasText: 'Order B-7 left the warehouse, Ana.' }).waitFor();
    expect(await page.getByRole('button', { name: /Save/ }).count()).toBe(0);
    await expectNoSeriousViolations(page, 'template (read-only)');
    await page.screenshot({ path: join(SHOTS, 'template-readonly.png'), fullPage: true });
    expect(await mutatingControls(page)).toBe(0);

    await visitConsole(page, t.url, '#/webhooks', 'Webhooks');
    await page.locator(`tr[data-webhook="${hookId}"]`).waitFor();
    await expectNoSeriousViolations(page, 'webhooks');
    await page.screenshot({ path: join(SHOTS, 'webhooks.png'), fullPage: true });
    await page.locator(`tr[data-webhook="${hookId}"] a`).click();
    await page.locator('tr[data-delivery][data-status="failed"]').waitFor();
    expect(await page.getByRole('button', { name: 'Redeliver' }).count()).toBe(0);
    await expectNoSeriousViolations(page, 'webhook deliveries (read-only)');
    expect(await mutatingControls(page)).toBe(0);

    await visitConsole(page, t.url, '#/workflows', 'Workflows');
    await page.locator('tr[data-workflow="welcome"]').waitFor();
    await page.locator(`tr[data-run="${runId}"]`).waitFor();
    await expectNoSeriousViolations(page, 'workflows');
    await page.screenshot({ path: join(SHOTS, 'workflows.png'), fullPage: true });
    await page.locator(`tr[data-run="${runId}"] a`).click();
    await page.locator('li[data-step="0"]').waitFor();
    expect(await page.locator('li[data-step="0"]').textContent()).toMatch(/Step 0: send — sent/);
    await expectNoSeriousViolations(page, 'workflow run');
    await page.screenshot({ path: join(SHOTS, 'workflow-run.png'), fullPage: true });
    expect(await mutatingControls(page)).toBe(0);

    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('the admin previews the Spanish variant, saves an edit, and redelivers a failed webhook delivery', async () => {
    const { context, page, problems } = await signInConsole(browser, t.url, ADMIN_KEY);
    await visitConsole(page, t.url, '#/templates/acme/order_shipped', /Template/);
    await page.getByLabel('Variant').selectOption('email/es');
    await page.getByLabel('Sample variables (JSON)').fill('{"name": "Ana", "order_id": "B-7"}');
    await page.locator('[data-preview-subject]', { hasText: 'Pedido B-7 enviado' }).waitFor();
    await page.getByLabel('Subject').fill('Tu pedido {{ order_id }} va en camino');
    await page.locator('[data-preview-subject]', { hasText: 'Tu pedido B-7 va en camino' }).waitFor();
    await expectNoSeriousViolations(page, 'template (admin)');
    await page.screenshot({ path: join(SHOTS, 'template-admin.png'), fullPage: true });
    await page.getByRole('button', { name: 'Save variant' }).click();
    await page.getByRole('button', { name: 'Save variant' }).and(page.locator(':enabled')).waitFor();
    const saved = await t.http.get('/v1/admin/projects/acme/templates/order_shipped').set('X-Api-Key', ADMIN_KEY);
    expect(saved.body.variants.find((v: { locale: string | null }) => v.locale === 'es').subject).toBe(
      'Tu pedido {{ order_id }} va en camino',
    );
    expect(saved.body.variants.find((v: { locale: string | null }) => v.locale === null).subject).toBe(
      'Order {{ order_id }} shipped',
    );

    await visitConsole(page, t.url, `#/webhooks/${hookId}`, 'Webhook deliveries');
    const failed = page.locator('tr[data-delivery][data-status="failed"]');
    const deliveryId = await failed.getAttribute('data-delivery');
    await expectNoSeriousViolations(page, 'webhook deliveries (admin)');
    await page.screenshot({ path: join(SHOTS, 'webhook-deliveries-admin.png'), fullPage: true });
    await failed.getByRole('button', { name: 'Redeliver' }).click();
    await page.locator(`tr[data-delivery="${deliveryId}"][data-status="pending"]`).waitFor();
    const [row] = await t.db.sql(`SELECT status, attempts FROM webhook_deliveries WHERE id = $1`, [deliveryId]);
    expect(row).toEqual({ status: 'pending', attempts: 0 });
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('a lane paused through the API shows up on the open Lanes page without a reload, and its resume too', async () => {
    const { context, page, problems } = await signInConsole(browser, t.url, READONLY_KEY);
    await visitConsole(page, t.url, '#/lanes', 'Lanes');
    await page.locator('tr[data-lane="email:log"][data-paused="false"]').waitFor();
    // A mark on the window: a reload would drop it.
    await page.evaluate(() => ((globalThis as any).consoleNotReloaded = true));
    const paused = await t.http
      .post('/v1/admin/lanes/email:log/pause')
      .set('X-Api-Key', ADMIN_KEY)
      .send({ duration_secs: 600, reason: 'provider incident' });
    expect(paused.status).toBe(200);
    // The fallback poll is every 30 s: within 20 s, only the admin event stream can have told the page.
    await page.locator('tr[data-lane="email:log"][data-paused="true"]').waitFor({ timeout: 20_000 });
    expect(await page.locator('tr[data-lane="email:log"]').textContent()).toContain('provider incident');
    await page.screenshot({ path: join(SHOTS, 'lanes-live.png'), fullPage: true });
    expect((await t.http.post('/v1/admin/lanes/email:log/resume').set('X-Api-Key', ADMIN_KEY)).status).toBe(200);
    await page.locator('tr[data-lane="email:log"][data-paused="false"]').waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => (globalThis as any).consoleNotReloaded)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
