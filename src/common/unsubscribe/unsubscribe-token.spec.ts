import { signUnsubscribeToken, verifyUnsubscribeToken, type UnsubscribeClaim } from './unsubscribe-token.js';

const claim: UnsubscribeClaim = {
  projectId: 'acme',
  channel: 'email',
  address: 'jane@example.com',
  topic: 'tips',
  expiresAt: 2_000_000_000,
};
const current = { id: '2026', secret: 'current-secret-0123456789' };
const old = { id: '2025', secret: 'previous-secret-0123456789' };

describe('unsubscribe tokens', () => {
  it('round-trips a claim and names its key', () => {
    const token = signUnsubscribeToken(claim, current);
    expect(token.startsWith('u1.2026.')).toBe(true);
    expect(verifyUnsubscribeToken(token, [current], 1_900_000_000)).toEqual(claim);
  });

  it('keeps links signed with a previous key valid after rotation, and refuses retired keys', () => {
    const token = signUnsubscribeToken(claim, old);
    expect(verifyUnsubscribeToken(token, [current, old], 1_900_000_000)).toEqual(claim);
    expect(verifyUnsubscribeToken(token, [current], 1_900_000_000)).toBeUndefined();
  });

  it('refuses a tampered claim, a wrong key, a forged key id and an expired link', () => {
    const token = signUnsubscribeToken(claim, current);
    const [v, kid, body, sig] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ p: 'acme', c: 'email', a: 'boss@example.com', e: 2_000_000_000 }),
    ).toString('base64url');
    expect(verifyUnsubscribeToken(`${v}.${kid}.${forged}.${sig}`, [current], 1_900_000_000)).toBeUndefined();
    expect(
      verifyUnsubscribeToken(token, [{ id: '2026', secret: 'another-secret-0123456789' }], 1_900_000_000),
    ).toBeUndefined();
    expect(verifyUnsubscribeToken(`${v}.2025.${body}.${sig}`, [current, old], 1_900_000_000)).toBeUndefined();
    expect(verifyUnsubscribeToken(token, [current], 2_000_000_001)).toBeUndefined();
    expect(verifyUnsubscribeToken('u1.2026.e30', [current])).toBeUndefined();
    expect(verifyUnsubscribeToken(`${token}x`, [current], 1_900_000_000)).toBeUndefined();
  });
});
