import { decodeSignal, encodeSignal } from './signal-message.js';

describe('signal messages', () => {
  it('round-trips topic and key, keys may contain the separator', () => {
    expect(encodeSignal('job.end', '6f1c2a4e')).toBe('job.end:6f1c2a4e');
    expect(decodeSignal(encodeSignal('inbox.stream', 'acme:user_1'))).toEqual({
      topic: 'inbox.stream',
      key: 'acme:user_1',
    });
    expect(decodeSignal('jobs.due:')).toEqual({ topic: 'jobs.due', key: '' });
  });

  it('refuses topics that could not be told apart and keys NOTIFY cannot carry', () => {
    expect(() => encodeSignal('Jobs:due', 'x')).toThrow(/topic/);
    expect(() => encodeSignal('', 'x')).toThrow(/topic/);
    expect(() => encodeSignal('job.end', 'a\0b')).toThrow(/NUL/);
    expect(() => encodeSignal('job.end', 'x'.repeat(1001))).toThrow(/1000 bytes/);
  });

  it('ignores payloads that are not notifyd signals', () => {
    expect(decodeSignal('hello')).toBeUndefined();
    expect(decodeSignal(':key')).toBeUndefined();
    expect(decodeSignal('UPPER:key')).toBeUndefined();
  });
});
