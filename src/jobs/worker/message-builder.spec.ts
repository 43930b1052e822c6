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
});
