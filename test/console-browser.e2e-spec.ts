import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchChromium } from './helpers/chromium.js';
import { expectNoSeriousViolations, mutatingControls, signInConsole, visitConsole } from './helpers/console-page.js';
import { ADMIN_KEY, READONLY_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

const SHOTS = join(process.cwd(), 'test-results', 'console');

/**
 * The operator console in real headless Chromium, used as a person would: sign in with each
 * operator key, read the digest, jobs and lanes; the read-only session is shown no control
 * that changes anything; the admin pauses a lane from the console and the API shows it paused;
 * after sign-out the old cookie is refused. Every page is checked with axe-core (no serious or
 * critical violation) and against its Content-Security-Policy (no violation reported), and
 * screenshotted into test-results/console/ (docs/CONSOLE.md shows them).
 */
describe('operator console in Chromium', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // A sealing key, so that the admin can set a project's own provider account from the console.
    t = await startTestApp({ env: { NOTIFYD_SECRET_KEY: randomBytes(32).toString('base64') } });
    const project = await t.createProject('acme');
    for (const to of ['jane@example.com', 'omar@example.com']) {
      const sent = await t.http
        .post('/v1/send')
        .set('X-Api-Key', project.key)
        .send({ channels: ['email'], to, subject: 'Order shipped', body: 'Your order is on its way.' });
      expect(sent.status).toBe(200);
    }
    await t.worker.drainOnce();
    const suppressed = await t.http
      .post('/v1/admin/suppressions')
      .set('X-Api-Key', ADMIN_KEY)
      .send({ project_id: 'acme', email: 'bounced@example.com', detail: 'mailbox does not exist' });
    expect(suppressed.status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const signIn = (key: string) => signInConsole(browser, t.url, key);
  const visit = (page: Page, hash: string, heading: string | RegExp) => visitConsole(page, t.url, hash, heading);
  const noSeriousViolations = expectNoSeriousViolations;

  it('the read-only session shows the digest, jobs, a timeline, lanes, suppressions and projects, and no control that changes anything', async () => {
    const { context, page, problems } = await signIn(READONLY_KEY);
    await page.locator('.finding').first().waitFor();
    expect(await page.locator('header .role').textContent()).toBe('read-only');
    await noSeriousViolations(page, 'digest');
    await page.screenshot({ path: join(SHOTS, 'digest-readonly.png'), fullPage: true });
    expect(await mutatingControls(page)).toBe(0);

    await visit(page, '#/jobs', 'Jobs');
    expect(await page.locator('tr[data-job]').count()).toBe(2);
    await page.getByLabel('Status').selectOption('sent');
    await page.getByLabel('Recipient').fill('jane@example.com');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('caption', { hasText: '1 jobs' }).waitFor();
    await noSeriousViolations(page, 'jobs');
    await page.screenshot({ path: join(SHOTS, 'jobs.png'), fullPage: true });
    expect(await mutatingControls(page)).toBe(0);

    await page.locator('tr[data-job] a').first().click();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    const timeline = await page.locator('.timeline').textContent();
    expect(timeline).toContain('Enqueued');
    expect(timeline).toContain('Sent');
    await noSeriousViolations(page, 'job');
    await page.screenshot({ path: join(SHOTS, 'job-timeline.png'), fullPage: true });
    expect(await mutatingControls(page)).toBe(0);

    await visit(page, '#/lanes', 'Lanes');
    await page.locator('tr[data-lane="email:log"]').waitFor();
    await noSeriousViolations(page, 'lanes');
    await page.screenshot({ path: join(SHOTS, 'lanes-readonly.png'), fullPage: true });
    expect(await mutatingControls(page)).toBe(0);

    await visit(page, '#/suppressions', 'Suppressions');
    expect(await page.locator('tr[data-suppression]').count()).toBe(1);
    expect(await page.locator('tr[data-suppression]').textContent()).not.toContain('bounced@example.com');
    await noSeriousViolations(page, 'suppressions');
    await page.screenshot({ path: join(SHOTS, 'suppressions-readonly.png'), fullPage: true });
    expect(await mutatingControls(page)).toBe(0);

    await visit(page, '#/projects', 'Projects');
    await page.locator('tr[data-project="acme"]').waitFor();
    await noSeriousViolations(page, 'projects');
    expect(await mutatingControls(page)).toBe(0);

    // The key was never kept by the page, and the cookie is out of the page's reach.
    const stored = await page.evaluate(() => {
      const w = globalThis as any;
      return { local: w.localStorage.length, session: w.sessionStorage.length, cookies: w.document.cookie };
    });
    expect(stored).toEqual({ local: 0, session: 0, cookies: '' });
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('the admin pauses a lane from the console and the API shows it paused; the digest offers the resume; a suppression is released; a project is created and its key rotated', async () => {
    const { context, page, problems } = await signIn(ADMIN_KEY);
    await visit(page, '#/lanes', 'Lanes');
    const row = page.locator('tr[data-lane="email:log"]');
    await row.getByLabel('Why pause email:log').fill('provider incident');
    await row.getByRole('button', { name: 'Pause' }).click();
    await page.locator('tr[data-lane="email:log"][data-paused="true"]').waitFor();
    const lane = await t.http.get('/v1/admin/lanes/email:log').set('X-Api-Key', ADMIN_KEY);
    expect(lane.body).toMatchObject({ paused: true, pause_kind: 'operator', pause_reason: 'provider incident' });
    await noSeriousViolations(page, 'lanes (admin)');
    await page.screenshot({ path: join(SHOTS, 'lanes-admin-paused.png'), fullPage: true });

    await visit(page, '#/digest', 'Digest');
    const finding = page.locator('.finding[data-code="lane_paused"]');
    await finding.waitFor();
    await noSeriousViolations(page, 'digest (admin)');
    await page.screenshot({ path: join(SHOTS, 'digest-admin.png'), fullPage: true });
    await finding.getByRole('button', { name: 'Resume email:log' }).click();
    await finding.waitFor({ state: 'detached' });
    expect((await t.http.get('/v1/admin/lanes/email:log').set('X-Api-Key', ADMIN_KEY)).body.paused).toBe(false);

    await visit(page, '#/suppressions', 'Suppressions');
    await page.locator('tr[data-suppression]').getByRole('button', { name: 'Release' }).click();
    await page.getByText('No active suppression.').waitFor();
    expect((await t.http.get('/v1/admin/suppressions').set('X-Api-Key', ADMIN_KEY)).body.count).toBe(0);

    // A project created from the console: its key is shown once and works on the API.
    await visit(page, '#/projects', 'Projects');
    await page.getByLabel('New project id').fill('beta');
    await page.getByLabel('Name').fill('Beta Ltd');
    await page.getByRole('button', { name: 'Create project' }).click();
    const created = (await page.locator('[data-new-key]').textContent())!;
    expect((await t.http.get('/v1/subscribers').set('X-Api-Key', created)).status).toBe(200);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.locator('tr[data-project="beta"]').getByRole('button', { name: 'Rotate key' }).click();
    const rotated = (await page.locator('[data-new-key]').textContent())!;
    expect(rotated).not.toBe(created);
    expect((await t.http.get('/v1/subscribers').set('X-Api-Key', rotated)).status).toBe(200);
    await noSeriousViolations(page, 'projects (admin)');
    await page.screenshot({ path: join(SHOTS, 'projects-admin-rotated.png'), fullPage: true });

    // The project's own provider account: set from the console, shown masked, then removed.
    const acme = page.locator('tr[data-project="acme"]');
    await acme.getByRole('button', { name: 'Set a provider' }).click();
    await acme.getByLabel('Channel', { exact: true }).selectOption('email');
    await acme.getByLabel('Provider', { exact: true }).fill('resend');
    await acme.getByLabel('Settings (JSON)').fill('{"api_key": "re_console_secret_0123456789"}');
    await acme.getByRole('button', { name: 'Save provider' }).click();
    const own = acme.locator('li[data-provider="email:resend"]');
    await own.waitFor();
    expect(await own.textContent()).not.toContain('re_console_secret_0123456789');
    const stored = await t.http.get('/v1/admin/projects/acme/providers/email').set('X-Api-Key', ADMIN_KEY);
    expect(stored.body).toMatchObject({ provider: 'resend' });
    expect(JSON.stringify(stored.body)).not.toContain('re_console_secret_0123456789');
    await noSeriousViolations(page, 'projects (admin, own provider)');
    await page.screenshot({ path: join(SHOTS, 'projects-admin-provider.png'), fullPage: true });
    await own.getByRole('button', { name: 'Remove email provider' }).click();
    await own.waitFor({ state: 'detached' });
    expect((await t.http.get('/v1/admin/projects/acme/providers').set('X-Api-Key', ADMIN_KEY)).body.providers).toEqual(
      [],
    );
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('a session cookie is refused after sign-out', async () => {
    const { context, page, problems } = await signIn(ADMIN_KEY);
    const cookie = await sessionCookie(context);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    const header = `${cookie.name}=${cookie.value}`;
    expect((await t.http.get('/v1/admin/lanes').set('Cookie', header)).status).toBe(200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Operator key').waitFor();
    await page.screenshot({ path: join(SHOTS, 'sign-in.png') });
    // Replayed from outside the browser, the old cookie opens nothing.
    expect((await t.http.get('/v1/admin/lanes').set('Cookie', header)).status).toBe(401);
    // And the browser, back on the console, is asked to sign in again.
    await page.reload();
    await page.getByLabel('Operator key').waitFor();
    await noSeriousViolations(page, 'sign-in');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});

async function sessionCookie(context: BrowserContext) {
  const cookie = (await context.cookies()).find((c) => c.name === 'notifyd_console');
  if (!cookie) throw new Error('no notifyd_console cookie after sign-in');
  return cookie;
}
