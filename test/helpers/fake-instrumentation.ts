import type { Instrumentation } from '../../src/governance/tracking/instrument-html.js';

/**
 * Tracking for instrumentHtml specs: links and the pixel point at n.example, and a wrapped
 * link shows its original in brackets (`https://n.example/t/c/[<url>]`) so expectations read
 * plainly. Opens and clicks are both on unless `patch` says otherwise.
 */
export function fakeInstrumentation(patch: Partial<Instrumentation> = {}): Instrumentation {
  return {
    opens: true,
    clicks: true,
    publicUrl: 'https://n.example',
    link: (u: string) => `https://n.example/t/c/[${u}]`,
    pixel: () => 'https://n.example/t/o/P.gif',
    ...patch,
  };
}
