import type { AppConfig } from '../config/app-config.js';
import { TemplateRenderPool } from './render/template-render-pool.js';
import { TemplateEngine, TemplateError } from './template-engine.js';

/* TemplateEngine over a real pool (render threads from dist/, see render-thread-script.ts). */
describe('TemplateEngine', () => {
  const config = {
    templates: {
      parseLimit: 1_000_000,
      renderLimitMs: 200,
      memoryLimit: 20_000_000,
      outputLimit: 1_000_000,
      threads: 1,
      threadMemoryMb: 64,
      queueLimit: 8,
    },
  } as AppConfig;
  const pool = new TemplateRenderPool(config);
  const engine = new TemplateEngine(config, pool);
  afterAll(() => pool.onApplicationShutdown());
  const sms = (body: string) => ({ subject: null, body, bodyHtml: null });

  it('a stopped variant fails all its entries with the limit named; the batch’s other variants render on a fresh thread', async () => {
    const stall = sms('{{ (1..1000000) | has_exp: "x", "x == 0" }}');
    const reply = await engine.renderMany({
      variants: [sms('a {{ n }}'), stall, sms('b {{ n }}')],
      renders: [1, 0, 1, 2, 0].map((variant, n) => ({ variant, vars: { n } })),
    });
    const stopped = {
      error:
        'body failed to render: stopped after TEMPLATE_RENDER_LIMIT_MS (200 ms); a loop or filter over many items (e.g. a range like (1..1000000)) takes too long: work on fewer items',
    };
    expect(reply.parseErrors).toEqual([null, null, null]);
    expect(reply.renders).toEqual([
      stopped,
      { content: expect.objectContaining({ body: 'a 1' }) },
      stopped,
      { content: expect.objectContaining({ body: 'b 3' }) },
      { content: expect.objectContaining({ body: 'a 4' }) },
    ]);
  });

  it('check and renderOne throw TemplateError naming the part', async () => {
    await expect(engine.check({ subject: 'ok', body: 'x', bodyHtml: '{% if x %}' })).rejects.toThrow(TemplateError);
    await expect(engine.check({ subject: 'ok', body: 'x', bodyHtml: '{% if x %}' })).rejects.toThrow(
      /^body_html does not parse: /,
    );
    await expect(engine.renderOne(sms("{% include 'other' %}"), {})).rejects.toThrow(
      /^body failed to render: ENOENT: Failed to lookup "other"/,
    );
    expect(
      await engine.renderOne({ subject: 'S {{ x }}', body: 'B', bodyHtml: '<p>{{ x }}</p>' }, { x: '<i>' }),
    ).toEqual({ subject: 'S <i>', body: 'B', bodyHtml: '<p>&lt;i&gt;</p>' });
  });

  it('vars a thread cannot be handed (nested past structured clone) fail their own entries; the thread serves the next task', async () => {
    let deep: Record<string, unknown> = { leaf: 'x' };
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    const message =
      /^vars cannot be rendered: they could not be handed to a render thread \(.*\); .*send flatter vars$/;
    const tooDeep = { error: expect.stringMatching(message) };
    // One thread: were it kept busy by the failed post, these would wait for ever (the test's timeout).
    for (let i = 0; i < 3; i++) {
      await expect(engine.renderOne(sms('{{ n }}'), { n: 1, deep })).rejects.toThrow(message);
    }
    const reply = await engine.renderMany({
      variants: [sms('a {{ n }}')],
      renders: [{ n: 1 }, { n: 2, deep }, { n: 3 }].map((vars) => ({ variant: 0, vars })),
    });
    expect(reply.renders).toEqual([
      { content: expect.objectContaining({ body: 'a 1' }) },
      tooDeep,
      { content: expect.objectContaining({ body: 'a 3' }) },
    ]);
  });
});
