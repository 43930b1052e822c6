import { threadId } from 'node:worker_threads';
import type { AppConfig } from '../../config/app-config.js';
import type { RenderTask } from './render-protocol.js';
import type { TaskOutcome } from './render-thread-handle.js';
import { RenderPoolUnavailable, TemplateRenderPool } from './template-render-pool.js';

/*
 * The pool against real worker threads: the thread script is tsc's output in dist/ (npm test
 * compiles it first, see render-thread-script.ts); nothing here runs Liquid on the test's own
 * thread. A runaway part is stopped from outside while this thread's timers keep firing.
 */
const STALL = '{{ (1..1000000) | has_exp: "x", "x == 0" }}';

/** Time limit 5 s unless a test is about it: a loaded test machine must not stop ordinary renders. */
function pool(templates: Partial<AppConfig['templates']> = {}): TemplateRenderPool {
  const config = {
    templates: {
      parseLimit: 1_000_000,
      renderLimitMs: 5_000,
      memoryLimit: 20_000_000,
      outputLimit: 1_000_000,
      threads: 1,
      threadMemoryMb: 64,
      queueLimit: 8,
      ...templates,
    },
  } as AppConfig;
  return new TemplateRenderPool(config);
}
const sms = (body: string): RenderTask['variants'][number] => ({ subject: null, body, bodyHtml: null });
const reply = (o: TaskOutcome) => {
  if (!('reply' in o)) throw new Error(`expected a reply, got ${JSON.stringify(o)}`);
  return o.reply;
};

describe('TemplateRenderPool', () => {
  let p: TemplateRenderPool;
  afterEach(() => p.onApplicationShutdown());

  it('renders a task off this thread: each variant parsed once, every entry rendered, HTML escaped, parse errors per variant', async () => {
    p = pool();
    const out = reply(
      await p.run({
        variants: [
          { subject: 'Hi {{ name }}', body: '{{ name | upcase }}', bodyHtml: '<p>{{ name }}</p>' },
          sms('{% if %}'),
          sms('n={{ n }}'),
        ],
        renders: [
          { variant: 0, vars: { name: '<b>Jo</b>' } },
          { variant: 1, vars: {} },
          { variant: 2, vars: { n: 1 } },
          { variant: 2, vars: { n: 2 } },
        ],
      }),
    );
    expect(out.parseErrors).toEqual([null, expect.stringMatching(/^body does not parse: /), null]);
    expect(out.renders).toEqual([
      { content: { subject: 'Hi <b>Jo</b>', body: '<B>JO</B>', bodyHtml: '<p>&lt;b&gt;Jo&lt;/b&gt;</p>' } },
      { error: out.parseErrors[1] },
      { content: { subject: undefined, body: 'n=1', bodyHtml: undefined } },
      { content: { subject: undefined, body: 'n=2', bodyHtml: undefined } },
    ]);
    expect(p.size).toBe(1);
    expect(threadId).toBe(0);
  });

  it('stops a part that runs past the limit inside one filter, while this thread keeps running; the thread is replaced and the next task renders', async () => {
    p = pool({ renderLimitMs: 200 });
    expect(reply(await p.run({ variants: [sms('warm')], renders: [{ variant: 0, vars: {} }] })).renders[0]).toEqual({
      content: expect.objectContaining({ body: 'warm' }),
    });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const started = performance.now();
    const outcome = await p.run({
      variants: [sms('fine'), sms(STALL)],
      renders: [
        { variant: 0, vars: {} },
        { variant: 1, vars: {} },
      ],
    });
    const elapsed = performance.now() - started;
    clearInterval(ticker);
    // Stopped at the second entry's body (index 1, part 1), after about the limit.
    expect(outcome).toEqual({
      stopped: { reason: 'time', kind: 1, index: 1, part: 1, detail: expect.stringMatching(/^ran \d+ ms$/) },
    });
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(2_000);
    // This thread's timer ran meanwhile: a render holding the event loop would let it fire once at most, afterwards.
    expect(ticks).toBeGreaterThanOrEqual(3);
    expect(p.size).toBe(0);
    expect(
      reply(await p.run({ variants: [sms('after {{ x }}')], renders: [{ variant: 0, vars: { x: 1 } }] })).renders[0],
    ).toEqual({ content: expect.objectContaining({ body: 'after 1' }) });
    expect(p.size).toBe(1);
  });

  it('stops a render that outgrows the thread heap', async () => {
    // liquidjs's own memoryLimit would refuse this range first: set it out of the way.
    p = pool({ renderLimitMs: 20_000, memoryLimit: 2_000_000_000, threadMemoryMb: 32 });
    const outcome = await p.run({ variants: [sms('{{ (1..100000000) | sum }}')], renders: [{ variant: 0, vars: {} }] });
    expect(outcome).toEqual({ stopped: expect.objectContaining({ reason: 'memory', kind: 1, index: 0, part: 1 }) });
    expect(reply(await p.run({ variants: [sms('ok')], renders: [{ variant: 0, vars: {} }] })).renders[0]).toEqual({
      content: expect.objectContaining({ body: 'ok' }),
    });
  });

  it('fails a render whose output is over the output limit', async () => {
    p = pool({ outputLimit: 1_000 });
    const out = reply(
      await p.run({ variants: [sms('{% for i in (1..2000) %}x{% endfor %}')], renders: [{ variant: 0, vars: {} }] }),
    );
    expect(out.renders[0]).toEqual({
      error:
        'body failed to render: its output (2000 characters) is over TEMPLATE_OUTPUT_LIMIT (1000); render fewer items',
    });
  });

  it('refuses a task at once when the queue is full; shutdown rejects the waiting tasks and stops the running one', async () => {
    p = pool({ threads: 1, queueLimit: 1, renderLimitMs: 10_000 });
    await p.run({ variants: [sms('warm')], renders: [{ variant: 0, vars: {} }] });
    // The thread is idle and ready: the slow task runs at once, the next waits, the third is refused.
    const slow = p.run({ variants: [sms(STALL)], renders: [{ variant: 0, vars: {} }] });
    const waiting = p
      .run({ variants: [sms('queued')], renders: [{ variant: 0, vars: {} }] })
      .catch((err: Error) => err);
    const refused = p.run({ variants: [sms('refused')], renders: [{ variant: 0, vars: {} }] });
    await expect(refused).rejects.toThrow(RenderPoolUnavailable);
    await expect(refused).rejects.toThrow(
      /all 1 template render threads are busy and 1 renders are waiting \(TEMPLATE_RENDER_THREADS, TEMPLATE_RENDER_QUEUE\)/,
    );
    await p.onApplicationShutdown();
    expect(await waiting).toEqual(new RenderPoolUnavailable('the template renderer is shutting down'));
    expect(await slow).toEqual({ stopped: expect.objectContaining({ reason: 'closed' }) });
    await expect(p.run({ variants: [sms('late')], renders: [] })).rejects.toThrow(/shutting down/);
  });
});
