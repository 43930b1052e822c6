import { renderVars } from './message-builder.js';

describe('renderVars', () => {
  it('fills placeholders, stringifying numbers, booleans and objects', () => {
    expect(renderVars('{{name}} has {{ n }} items ({{ok}}) {{obj}}', { name: 'Jane', n: 3, ok: true, obj: { a: 1 } })).toBe(
      'Jane has 3 items (true) {"a":1}',
    );
  });
  it('renders null as empty and leaves unknown placeholders as they are', () => {
    expect(renderVars('[{{gone}}] {{unknown}}', { gone: null })).toBe('[] {{unknown}}');
  });
  it('ignores inherited properties', () => expect(renderVars('{{constructor}}', {})).toBe('{{constructor}}'));
  it('passes text through without vars', () => expect(renderVars('{{x}}', undefined)).toBe('{{x}}'));
  it('escapes values in HTML (as liquidjs escape does); `| raw` opts out; text is left as is', () => {
    const vars = { name: `<b>"Jane" & 'co'</b>`, obj: { a: '<x>' }, trusted: '<i>ok</i>' };
    expect(renderVars('<p>{{name}} {{ obj }} {{ trusted | raw }}</p>', vars, { html: true })).toBe(
      '<p>&lt;b&gt;&#34;Jane&#34; &amp; &#39;co&#39;&lt;/b&gt; {&#34;a&#34;:&#34;&lt;x&gt;&#34;} <i>ok</i></p>',
    );
    expect(renderVars('{{name}}', vars)).toBe(vars.name);
    expect(renderVars('<p>{{unknown}}</p>', vars, { html: true })).toBe('<p>{{unknown}}</p>');
  });
});
