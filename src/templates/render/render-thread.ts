import { parentPort, workerData } from 'node:worker_threads';
import { LiquidRenderer } from './liquid-renderer.js';
import { ProgressSlots, type RenderTask, type ThreadData } from './render-protocol.js';

/*
 * A render thread's entry (started by render-thread-handle.ts from tsc's output in dist/). It
 * runs one task at a time: the main thread posts the next only after this one's reply. It says
 * `ready` once liquidjs is loaded and has rendered a sample (its code compiled by V8), so that
 * neither counts against the first real render's time.
 */
const { limits, progress } = workerData as ThreadData;
const renderer = new LiquidRenderer(limits);
const slots = new ProgressSlots(progress);
const port = parentPort!;

port.on('message', (task: RenderTask) => {
  renderer.run(task, slots).then(
    (reply) => port.postMessage({ reply }),
    // LiquidRenderer turns every template failure into a result; anything else is a bug, reported as such.
    (err: unknown) => port.postMessage({ failure: err instanceof Error ? err.message : String(err) }),
  );
});
const sample = {
  subject: '{{ a }}',
  body: '{% for i in (1..50) %}{% if i > 1 %}{{ i | plus: 1 }}{% endif %}{% endfor %}',
  bodyHtml: '<p>{{ a | upcase }}</p>',
};
void renderer
  .run({ variants: [sample], renders: [{ variant: 0, vars: { a: '<x>' } }] })
  .finally(() => port.postMessage('ready'));
