import { fakeInstrumentation } from '../../../test/helpers/fake-instrumentation.js';
import { createHmac } from 'node:crypto';
import { instrumentHtml, PIXEL_GIF, wrappable } from './instrument-html.js';
import { trackingFor } from './tracking-policy.js';
import { signTracking, verifyTracking } from './tracking-token.js';

describe('trackingFor (notifyd §6.5)', () => {
  const both = { opens: true, clicks: true };
  const none = { opens: false, clicks: false };
  it.each([
    ['default: marketing tracked', undefined, undefined, true, both],
    ['default: transactional not tracked', undefined, undefined, false, none],
    ['project off', false, undefined, true, none],
    ['project off cannot be re-enabled by a request', false, true, false, none],
    ['project opens only', { opens: false }, undefined, true, { opens: false, clicks: true }],
    ['applies_to all tracks transactional', { applies_to: 'all' }, undefined, false, both],
    ['request false', undefined, false, true, none],
    ['request narrows', undefined, { clicks: false }, true, { opens: true, clicks: false }],
    ['request true opts a transactional in', undefined, true, false, both],
    [
      'request object opts in, within the project',
      { clicks: false },
      { opens: true },
      false,
      { opens: true, clicks: false },
    ],
  ])('%s', (_name, project, request, marketing, expected) => {
    expect(trackingFor(project, request, marketing as boolean)).toEqual(expected);
  });
});

describe('instrumentHtml', () => {
  const t = fakeInstrumentation();

  it('wraps http(s) links and adds the pixel before </body>', () => {
    const html = `<html><body><a href="https://shop.example/a?x=1&amp;y=2">A</a> <a class="b" href='http://b.example'>B</a></body></html>`;
    expect(instrumentHtml(html, t)).toBe(
      `<html><body><a href="https://n.example/t/c/[https://shop.example/a?x=1&y=2]">A</a> <a class="b" href='https://n.example/t/c/[http://b.example]'>B</a><img src="https://n.example/t/o/P.gif" width="1" height="1" alt="" style="display:none"></body></html>`,
    );
  });

  it('leaves mailto, placeholders and our own unsubscribe/tracking links alone; appends the pixel without </body>', () => {
    const html = `<a href="mailto:a@b.example">m</a><a href="https://x.example/{{id}}">p</a><a href="https://n.example/u/tok">u</a>`;
    expect(instrumentHtml(html, t)).toBe(
      `${html}<img src="https://n.example/t/o/P.gif" width="1" height="1" alt="" style="display:none">`,
    );
    expect(wrappable('https://N.example/t/c/x', 'https://n.example')).toBe(false);
  });

  it('does only what is asked', () => {
    const html = '<body><a href="https://a.example">a</a></body>';
    expect(instrumentHtml(html, { ...t, opens: false })).not.toContain('<img');
    expect(instrumentHtml(html, { ...t, clicks: false })).toContain('href="https://a.example"');
  });

  it('serves a 43-byte GIF', () => {
    expect(PIXEL_GIF.length).toBe(43);
    expect(PIXEL_GIF.subarray(0, 6).toString()).toBe('GIF89a');
  });
});

describe('tracking tokens', () => {
  const key = { id: 'k2', secret: 'tracking-secret-0123456789' };
  const old = { id: 'k1', secret: 'old-tracking-secret-0123456789' };
  const click = { kind: 'c', jobId: 'j', projectId: 'p', url: 'https://a.example/x' } as const;

  it('round-trip, name their key and refuse tampering', () => {
    const token = signTracking(click, key);
    expect(token.startsWith('k2.')).toBe(true);
    expect(verifyTracking(token, [key])).toEqual(click);
    expect(verifyTracking(token, [{ id: 'k2', secret: 'other-secret-0123456789' }])).toBeUndefined();
    const forged = Buffer.from(JSON.stringify(['c', 'j', 'p', 'https://evil.example'])).toString('base64url');
    const [kid, , sig] = token.split('.');
    expect(verifyTracking(`${kid}.${forged}.${sig}`, [key])).toBeUndefined();
    const js = signTracking({ kind: 'c', jobId: 'j', projectId: 'p', url: 'javascript:alert(1)' }, key);
    expect(verifyTracking(js, [key])).toBeUndefined();
  });

  it('verify with a previous key after a rotation, and never under a key of another id', () => {
    const token = signTracking(click, old);
    expect(verifyTracking(token, [key, old])).toEqual(click);
    expect(verifyTracking(token, [key])).toBeUndefined();
    expect(verifyTracking(token.replace(/^k1\./, 'k2.'), [key, { id: 'k2', secret: old.secret }])).toBeUndefined();
  });

  it('accept links from before key ids (claim.mac) under any accepted key', () => {
    const token = signTracking(click, old);
    const [, body] = token.split('.');
    const legacy = `${body}.${createHmac('sha256', old.secret).update(body).digest('base64url').slice(0, 32)}`;
    expect(verifyTracking(legacy, [key, old])).toEqual(click);
    expect(verifyTracking(legacy, [key])).toBeUndefined();
  });

  it('refuse to sign with an empty or short key', () => {
    expect(() => signTracking(click, { id: 'j', secret: '' })).toThrow(/at least 16/);
  });
});
