import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, normalize } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { Notifyd } from '../src/index.js';
import { createProject, NOTIFYD_URL } from './harness.js';

/** Debian's chromium (apt-get install chromium; .ci/run does); playwright-core downloads no browser. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** This file runs from dist/test: the built client is dist/src. */
const built = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/**
 * NotifydInbox in real headless Chromium, loaded as plain ES modules by a page of another origin:
 * a message sent through the API arrives on the stream, and a stream reopened with the last
 * event id gets what was sent while it was closed, and only that.
 */
describe('NotifydInbox in Chromium', () => {
  let site: Server;
  let origin: string;
  let browser: Browser;

  before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`);
    site = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path.startsWith('/client/')) {
        const file = normalize(join(built, path.slice('/client/'.length)));
        if (!file.startsWith(built) || !existsSync(file)) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
        return void res.end(readFileSync(file));
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><body><h1>Acme</h1></body></html>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  after(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => site.close(() => resolve()));
  });

  /** Opens the stream in the page; resolves once notifyd holds it. */
  const subscribe = async (page: Page, lastEventId: string | null) => {
    await page.evaluate(async (resume) => {
      const w = window as any;
      w.events = [];
      await new Promise<void>((opened) => {
        w.subscription = w.inbox.subscribe((e: unknown) => w.events.push(e), { onOpen: opened, ...(resume ? { lastEventId: resume } : {}), onError: (e: unknown) => console.error(String(e)) });
      });
    }, lastEventId);
  };
  const createdBodies = (page: Page) =>
    page.evaluate(() => (window as any).events.filter((e: { type: string }) => e.type === 'message.created').map((e: { data: { message: { body: string } } }) => e.data.message.body));
  const waitForBody = (page: Page, body: string) =>
    page.waitForFunction((text) => (window as any).events.some((e: { type: string; data: any }) => e.type === 'message.created' && e.data.message.body === text), body, { timeout: 20_000 });

  it('receives a sent message live and resumes with Last-Event-ID after a disconnect', async () => {
    const project = await createProject();
    const notifyd = new Notifyd({ baseUrl: NOTIFYD_URL, apiKey: project.key });
    await notifyd.subscribers.upsert({ id: 'jane' });
    const { token } = await notifyd.subscribers.createToken({ subscriber_id: 'jane' });

    const page = await (await browser.newContext()).newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    if (process.env.DEBUG_INBOX) page.on('console', (m) => console.log('page:', m.text()));
    await page.goto(origin);
    await page.evaluate(
      async ({ api, token }) => {
        const { NotifydInbox } = await import('/client/inbox.js' as string);
        (window as any).inbox = new NotifydInbox({ baseUrl: api, subscriberId: 'jane', token });
      },
      { api: NOTIFYD_URL, token },
    );

    await subscribe(page, null);
    await notifyd.send({ subscriber_id: 'jane', channels: ['in_app'], subject: 'Shipped', body: 'Order A-1 is on its way' });
    await waitForBody(page, 'Order A-1 is on its way');
    assert.deepEqual((await page.evaluate(() => (window as any).inbox.counts())).unread_count, 1);

    const lastEventId = await page.evaluate(() => {
      const w = window as any;
      w.subscription.close();
      return w.subscription.lastEventId as string;
    });
    assert.match(lastEventId, /^\d+$/);
    // Sent while the page was not listening.
    const missed = await notifyd.send({ subscriber_id: 'jane', channels: ['in_app'], subject: 'Shipped', body: 'Order A-2 is on its way' });
    assert.equal((await notifyd.jobs.wait(missed.job_ids[0]!)).status, 'sent');

    await subscribe(page, lastEventId);
    await waitForBody(page, 'Order A-2 is on its way');
    assert.deepEqual(await createdBodies(page), ['Order A-2 is on its way']);
    await page.evaluate(() => (window as any).subscription.close());
    assert.deepEqual(errors, []);
  });
});
