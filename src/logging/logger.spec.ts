import { Writable } from 'node:stream';
import { createPino, PinoLogger } from './logger.js';
import { loggableUrl, maskPii } from './redact.js';

/** Collects the JSON lines a logger writes. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}

describe('structured logs', () => {
  it('writes one JSON line per message with level, context and pid', () => {
    const { lines, stream } = capture();
    new PinoLogger(createPino('info', stream)).log('worker started', 'Worker');
    expect(lines).toEqual([
      expect.objectContaining({ level: 'info', context: 'Worker', msg: 'worker started', pid: process.pid }),
    ]);
  });

  it('respects the level', () => {
    const { lines, stream } = capture();
    const logger = new PinoLogger(createPino('warn', stream));
    logger.log('quiet');
    logger.debug('quieter');
    logger.warn('heard');
    expect(lines.map((l) => l.msg)).toEqual(['heard']);
  });

  it('removes secrets by field name, whatever the caller passed', () => {
    const { lines, stream } = capture();
    createPino('info', stream).info(
      {
        req: { headers: { authorization: 'Bearer sk_live_123', 'x-api-key': 'sk_default_abc' } },
        provider: { api_key: 're_123', token: 't' },
      },
      'call',
    );
    const text = JSON.stringify(lines);
    expect(text).not.toMatch(/sk_live_123|sk_default_abc|re_123/);
    expect(lines[0]).toMatchObject({
      req: { headers: { authorization: '[redacted]', 'x-api-key': '[redacted]' } },
      provider: { api_key: '[redacted]', token: '[redacted]' },
    });
  });

  it('masks email addresses and phone numbers in messages and errors', () => {
    const { lines, stream } = capture();
    const logger = new PinoLogger(createPino('info', stream));
    logger.warn('bounce for jane.doe@example.com from +33612345678', 'Worker');
    logger.error(new Error('550 unknown user bob@example.org'));
    expect(lines[0].msg).toBe('bounce for j***@example.com from ***5678');
    expect(JSON.stringify(lines[1])).not.toContain('bob@example.org');
  });

  it('logs URLs without credential-bearing query values', () => {
    expect(loggableUrl('/v1/inbox/u1/stream?ticket=tkt_secret&x=1')).toBe('/v1/inbox/u1/stream?ticket=[redacted]&x=1');
    expect(loggableUrl('/v1/subscribers?q=ann@example.com')).toBe('/v1/subscribers?q=a***@example.com');
    expect(maskPii('no personal data here')).toBe('no personal data here');
  });
});
