import { fakeInstrumentation } from '../../../test/helpers/fake-instrumentation.js';
import { unboundedQuantifiers } from '../../../test/helpers/regex-shape.js';
import { HTML_PATTERNS, instrumentHtml } from './instrument-html.js';

/**
 * Click wrapping runs in the worker on every tracked email's HTML, which the tenant wrote (up
 * to 1 MB). The old single regex (`<a\b[^>]*?\bhref…(.*?)\2`) was retried from every `<a` and
 * rescanned the rest of the body from each: 512 KB of `<a href=` kept the worker busy for a
 * minute. These bodies are the shapes that did that; the answer must still be the right one.
 */
describe('instrumentHtml on adversarial HTML', () => {
  const t = fakeInstrumentation({ opens: false });
  const tail = '<a href="https://shop.example/x">x</a>';
  const wrappedTail = '<a href="https://n.example/t/c/[https://shop.example/x]">x</a>';

  it('every pattern it runs has only bounded quantifiers (no attempt can rescan the rest of the body)', () => {
    expect(HTML_PATTERNS.length).toBeGreaterThanOrEqual(2);
    for (const re of HTML_PATTERNS) expect([re.source, unboundedQuantifiers(re)]).toEqual([re.source, []]);
  });

  it.each([
    ['unclosed <a href= repeated', '<a href='.repeat(125_000)],
    ['unclosed quotes repeated', '<a href="'.repeat(110_000)],
    ['one tag with many href attributes and no closing quote', `<a ${'href="x '.repeat(110_000)}`],
    ['a quote that never closes', `<a href='${'x'.repeat(1_000_000)}`],
  ])('%s, then `>`: left as it is, and a real link after it is still wrapped', (_shape, body) => {
    expect(instrumentHtml(`${body}>\n${tail}`, t)).toBe(`${body}>\n${wrappedTail}`);
  });

  it('keeps the attributes around href, either quote, and a tag spread over lines', () => {
    const html = `<a class="btn"\n   href = 'https://a.example/p?x=1&amp;y=2'\n   title="go">A</a><A HREF="http://b.example">B</A>`;
    expect(instrumentHtml(html, t)).toBe(
      `<a class="btn"\n   href = 'https://n.example/t/c/[https://a.example/p?x=1&y=2]'\n   title="go">A</a><A HREF="https://n.example/t/c/[http://b.example]">B</A>`,
    );
  });
});
