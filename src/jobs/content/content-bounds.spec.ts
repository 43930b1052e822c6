import { boundContent, cutToBytes, RENDERED_CONTENT_MAX_BYTES } from './content-bounds.js';

describe('rendered content bounds', () => {
  it('keeps short content as it is', () => {
    expect(boundContent({ subject: 'Hi Amélie', body: 'Body', bodyHtml: null })).toEqual({
      subject: 'Hi Amélie',
      body: 'Body',
      bodyHtml: null,
      truncated: false,
    });
  });
  it('cuts at a character boundary, never leaving half a character', () => {
    expect(cutToBytes('ééé', 5)).toEqual(['éé', true]);
    expect(cutToBytes('a😀b', 3)).toEqual(['a', true]);
  });
  it('fits all parts in 64 KiB together: subject first (2 KiB at most), then the text, then the HTML', () => {
    const kept = boundContent({ subject: 's'.repeat(5000), body: 'b'.repeat(40_000), bodyHtml: 'h'.repeat(40_000) });
    expect(kept.truncated).toBe(true);
    expect(kept.subject).toHaveLength(2048);
    expect(kept.body).toHaveLength(40_000);
    expect(Buffer.byteLength(kept.subject! + kept.body! + kept.bodyHtml!)).toBe(RENDERED_CONTENT_MAX_BYTES);
  });
});
