import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { launchChromium } from './helpers/chromium.js';
import { expectNoSeriousViolations, signInConsole } from './helpers/console-page.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

const SHOTS = join(process.cwd(), 'test-results', 'console');

/**
 * The console's Trace page in real headless Chromium ("why didn't they get it?"): the read-only
 * session searches a recipient and reads each message's verdict and reason — a send refused by
 * a suppression (with the suppression's evidence) and a delivered-to-provider one — then a
 * subscriber id. Checked with axe-core and against the page's Content-Security-Policy, and
 * screenshotted into test-results/console/trace.png (docs/CONSOLE.md shows it).
 */
describe('console Trace page in Chromium', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await startTestApp();
    const project = await t.createProject('acme');
    const sent = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['email'], to: 'jane@example.com', subject: 'Order shipped', body: 'On its way.' });
    expect(sent.status).toBe(200);
    await t.worker.drainOnce();
    const suppressed = await t.http
      .post('/v1/admin/suppressions')
      .set('X-Api-Key', ADMIN_KEY)
      .send({ project_id: 'acme', email: 'jane@example.com', detail: 'asked by phone to stop' });
    expect(suppressed.status).toBe(200);
    const refused = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({ channels: ['email'], to: 'jane@example.com', subject: 'Your invoice', body: 'Attached.' });
    expect(refused.body.job_ids).toEqual([]);
    const subscriber = await t.http
      .post('/v1/subscribers')
      .set('X-Api-Key', project.key)
      .send({ id: 'user-42', email: 'omar@example.com' });
    expect([200, 201]).toContain(subscriber.status);
    expect(
      (
        await t.http
          .post('/v1/send')
          .set('X-Api-Key', project.key)
          .send({ channels: ['sms'], subscriber_id: 'user-42', body: 'Hi' })
      ).status,
    ).toBe(422);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('the read-only session traces a recipient and a subscriber id and reads the verdicts', async () => {
    const { context, page, problems } = await signInConsole(browser, t.url, READONLY_KEY);

    await page.getByRole('link', { name: 'Trace' }).click();
    await page.getByRole('heading', { name: 'Trace', level: 1 }).waitFor();
    await page.getByLabel('Recipient or subscriber id').fill('jane@example.com');
    await page.getByRole('button', { name: 'Trace' }).click();
    await page.locator('tr[data-verdict="refused"]').waitFor();
    expect(
      await page.locator('tr[data-verdict]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-verdict'))),
    ).toEqual(['refused', 'sent']);
    const refused = await page.locator('tr[data-verdict="refused"]').textContent();
    expect(refused).toContain('suppressed');
    expect(refused).toMatch(/suppression list/);
    // Masked, as the admin API masks recipients.
    expect(await page.locator('table').textContent()).not.toContain('jane@example.com');
    expect(await page.locator('[data-trace-summary]').textContent()).toMatch(
      /2 message\(s\).*1 refused, 1 sent.*Suppressed: email manual \(admin\)/s,
    );
    await page.locator('tr[data-verdict="refused"] summary').click();
    expect(await page.locator('tr[data-verdict="refused"] details').textContent()).toContain('asked by phone to stop');

    await expectNoSeriousViolations(page, 'trace');
    await page.screenshot({ path: join(SHOTS, 'trace.png'), fullPage: true });

    // A subscriber id: its SMS refused for want of a phone number.
    await page.getByLabel('Recipient or subscriber id').fill('user-42');
    await page.getByRole('button', { name: 'Trace' }).click();
    await page.locator('tr[data-verdict="refused"]', { hasText: 'no_address' }).waitFor();
    expect(await page.locator('[data-trace-summary]').textContent()).toContain('acme/user-42');
    expect(await page.locator('[data-mutates]').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
