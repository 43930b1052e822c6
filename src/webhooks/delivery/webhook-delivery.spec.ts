import { Webhook } from 'standardwebhooks';
import {
  decryptSecret,
  decryptWithAny,
  encryptSecret,
  generateSecret,
  isValidSecret,
  secretsKey,
  secretsKeys,
} from '../webhook-secrets.js';
import { classifyResponse } from './webhook-outcome.js';
import {
  trippedDuringBatch,
  WEBHOOK_PAUSE_AFTER_FAILURES,
  webhookPauseMs,
  webhookPauseScheduleMs,
} from './webhook-pause.js';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_MAX_RETRY_DELAY_MS, webhookRetryDelayMs } from './webhook-retry.js';
import { signatureHeader, webhookHeaders } from './webhook-signature.js';

describe('Standard Webhooks signing', () => {
  const body = '{"type":"job.sent","timestamp":"2026-11-30T10:00:00.000Z","data":{"job_id":"j1"}}';

  it('is byte-identical to the reference library and verifies with it', () => {
    const secret = generateSecret();
    const at = new Date('2026-11-30T10:00:00Z');
    const reference = new Webhook(secret).sign('msg_1', at, body);
    expect(signatureHeader([secret], 'msg_1', at.getTime() / 1000, body)).toBe(reference);
    const headers = webhookHeaders([secret], 'msg_1', body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('signs with every secret of a rotation; either verifies', () => {
    const [a, b] = [generateSecret(), generateSecret()];
    const headers = webhookHeaders([a, b], 'msg_2', body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(a).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(b).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
  });

  it('accepts only whsec_ secrets of 24–64 bytes', () => {
    expect(isValidSecret(generateSecret())).toBe(true);
    expect(isValidSecret(`whsec_${Buffer.alloc(16).toString('base64')}`)).toBe(false);
    expect(isValidSecret('secret')).toBe(false);
  });
});

describe('secrets at rest', () => {
  it('round-trips with AES-256-GCM bound to the endpoint id; another id or key fails', () => {
    const key = secretsKey(undefined, 'jwt-secret-0123456789abcdef')!;
    const secret = generateSecret();
    const blob = encryptSecret(key, 'e1', secret);
    expect(blob.toString('latin1')).not.toContain(secret.slice(6));
    expect(decryptSecret(key, 'e1', blob)).toBe(secret);
    expect(() => decryptSecret(key, 'e2', blob)).toThrow();
    expect(() => decryptSecret(secretsKey(undefined, 'another-secret-0123456789')!, 'e1', blob)).toThrow();
    expect(secretsKey(undefined, undefined)).toBeUndefined();
    expect(secretsKey(Buffer.alloc(32, 7), 'ignored')).toEqual(Buffer.alloc(32, 7));
  });

  it('secrets sealed before a JWT_SECRET rotation (or before WEBHOOK_SECRET_KEY was set) still open', () => {
    const secret = generateSecret();
    const blob = encryptSecret(secretsKey(undefined, 'old-jwt-secret-0123456789')!, 'e1', secret);
    expect(
      decryptWithAny(secretsKeys(undefined, 'new-jwt-secret-0123456789', ['old-jwt-secret-0123456789']), 'e1', blob),
    ).toBe(secret);
    expect(decryptWithAny(secretsKeys(Buffer.alloc(32, 7), 'old-jwt-secret-0123456789', []), 'e1', blob)).toBe(secret);
    expect(() => decryptWithAny(secretsKeys(undefined, 'new-jwt-secret-0123456789', []), 'e1', blob)).toThrow();
    expect(() => decryptWithAny([], 'e1', blob)).toThrow(/set WEBHOOK_SECRET_KEY or JWT_SECRET/);
    expect(secretsKeys(Buffer.alloc(32, 7), 'x'.repeat(16), [])[0]).toEqual(Buffer.alloc(32, 7));
  });
});

describe('webhook answers', () => {
  it.each([
    [200, 'delivered'],
    [204, 'delivered'],
    [410, 'disable'],
    [301, 'retry'],
    [302, 'retry'],
    [400, 'retry'],
    [429, 'retry'],
    [500, 'retry'],
    [503, 'retry'],
  ])('HTTP %i → %s', (status, kind) => {
    expect(classifyResponse(status, null, '').kind).toBe(kind);
  });

  it('honours Retry-After and names redirects by host only', () => {
    expect(classifyResponse(429, '30', '')).toMatchObject({ retryAfterMs: 30_000 });
    expect(classifyResponse(302, null, '', 'https://internal.example/path?token=secret')).toMatchObject({
      error: 'HTTP 302 redirect to internal.example not followed; register the final URL instead',
    });
  });
});

describe('retry schedule', () => {
  it('spans about a day over ten attempts, ±20 %', () => {
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(10);
    const total = (r: number) =>
      Array.from({ length: WEBHOOK_MAX_ATTEMPTS - 1 }, (_, i) => webhookRetryDelayMs(i + 1, undefined, () => r)).reduce(
        (a, b) => a + b,
        0,
      );
    expect(total(0.5) / 3_600_000).toBeCloseTo(23.6, 0);
    expect(total(0) / total(0.5)).toBeCloseTo(0.8, 5);
    expect(total(0.999999) / total(0.5)).toBeCloseTo(1.2, 4);
  });

  it('waits at least as long as Retry-After asks, at most a day', () => {
    expect(webhookRetryDelayMs(1, 600_000, () => 0.5)).toBe(600_000);
    expect(webhookRetryDelayMs(1, 10 * 86_400_000, () => 0.5)).toBe(86_400_000);
    expect(webhookRetryDelayMs(1, 1_000, () => 0.5)).toBe(5_000);
  });
});

describe('endpoint pause (circuit breaker)', () => {
  it('pauses from the fifth failure in a row: 30 s, then doubling per failed probe, capped at 8 h', () => {
    expect(WEBHOOK_PAUSE_AFTER_FAILURES).toBe(5);
    expect([0, 1, 4].map(webhookPauseMs)).toEqual([0, 0, 0]);
    expect([5, 6, 7, 8].map(webhookPauseMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(WEBHOOK_MAX_RETRY_DELAY_MS).toBe(28_800_000);
    expect(webhookPauseMs(15)).toBe(WEBHOOK_MAX_RETRY_DELAY_MS);
    expect(webhookPauseMs(10_000)).toBe(WEBHOOK_MAX_RETRY_DELAY_MS);
    for (let f = 5; f < 40; f++) expect(webhookPauseMs(f + 1)).toBeGreaterThanOrEqual(webhookPauseMs(f));
  });

  it('hands SQL the same rule: element i is the pause after 5 + i failures, the last one the cap', () => {
    const schedule = webhookPauseScheduleMs();
    schedule.forEach((ms, i) => expect(ms).toBe(webhookPauseMs(WEBHOOK_PAUSE_AFTER_FAILURES + i)));
    expect(schedule.at(-1)).toBe(WEBHOOK_MAX_RETRY_DELAY_MS);
    expect(schedule.at(-2)).toBeLessThan(WEBHOOK_MAX_RETRY_DELAY_MS);
    // SQL reads it as int[]: every element must fit.
    expect(Math.max(...schedule)).toBeLessThan(2 ** 31);
  });

  it.each([
    [0, 4, false, 'four failures in the batch: not yet'],
    [0, 5, true, 'the fifth failure in the batch'],
    [3, 2, true, 'two more on top of three from earlier batches'],
    [4, 0, false, 'no failure in this batch yet'],
    [7, 0, false, 'the probe of an ended pause: still sent'],
    [7, 1, true, 'a failed probe, in a batch that somehow holds more of its deliveries'],
  ])('trips mid-batch at %i earlier + %i failures in the batch: %s (%s)', (before, inBatch, tripped) => {
    expect(trippedDuringBatch(before, inBatch)).toBe(tripped);
  });
});
