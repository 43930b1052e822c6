import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { expect } from '@jest/globals';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A fresh browser profile signed in to the console through its form; CSP violations and page errors are collected. */
export async function signInConsole(browser: Browser, url: string, key: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) problems.push(msg.text());
  });
  await page.goto(`${url}/console`);
  await page.getByLabel('Operator key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Digest' }).waitFor();
  return { context, page, problems };
}

/** Opens a console page by its hash and waits until it has loaded. */
export async function visitConsole(page: Page, url: string, hash: string, heading: string | RegExp) {
  await page.goto(`${url}/console${hash}`);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  await page.locator('.loading').first().waitFor({ state: 'detached' });
}

/** axe-core on the whole document: fails on any serious or critical violation. */
export async function expectNoSeriousViolations(page: Page, name: string) {
  // Runtime.evaluate from the test is not page script: the page's CSP does not apply to it.
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const page = globalThis as any;
    const result = await page.axe.run(page.document, { resultTypes: ['violations'] });
    return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }));
  });
  expect({
    page: name,
    serious: violations.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical'),
  }).toEqual({ page: name, serious: [] });
}

/** Controls that would change something: marked data-mutates, or named like a change. */
export const mutatingControls = (page: Page) =>
  page
    .locator(
      '[data-mutates], button:text-matches("^(Pause|Resume|Retry|Cancel|Release|Rotate|Revoke|Create|Save|Redeliver|Delete)", "i")',
    )
    .count();
