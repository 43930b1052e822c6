import { signUnsubscribeToken, verifyUnsubscribeToken } from '../../common/unsubscribe/unsubscribe-token.js';
import { signPreferenceToken, verifyPreferenceToken, type PreferenceClaim } from './preference-token.js';

const claim: PreferenceClaim = { projectId: 'acme', subscriberId: 'user_1', expiresAt: 2_000_000_000 };
const current = { id: 'j', secret: 'current-secret-0123456789' };
const previous = { id: 'j', secret: 'previous-secret-0123456789' };

describe('preference-center tokens', () => {
  it('round-trips a claim under its key id, and verifies under a previous secret of the same id (JWT_PREVIOUS_SECRETS)', () => {
    const token = signPreferenceToken(claim, current);
    expect(token.startsWith('p1.j.')).toBe(true);
    expect(verifyPreferenceToken(token, [current], 1_900_000_000)).toEqual(claim);
    expect(verifyPreferenceToken(signPreferenceToken(claim, previous), [current, previous], 1_900_000_000)).toEqual(
      claim,
    );
    expect(verifyPreferenceToken(signPreferenceToken(claim, previous), [current], 1_900_000_000)).toBeUndefined();
  });

  it('refuses a tampered claim, another key, an expired token, and unsubscribe tokens (and is refused as one)', () => {
    const token = signPreferenceToken(claim, current);
    const [v, kid, , sig] = token.split('.');
    const swapped = Buffer.from(JSON.stringify({ p: 'acme', s: 'boss', e: 2_000_000_000 })).toString('base64url');
    expect(verifyPreferenceToken(`${v}.${kid}.${swapped}.${sig}`, [current], 1_900_000_000)).toBeUndefined();
    expect(
      verifyPreferenceToken(token, [{ id: 'j', secret: 'another-secret-0123456789' }], 1_900_000_000),
    ).toBeUndefined();
    expect(verifyPreferenceToken(token, [current], 2_000_000_001)).toBeUndefined();
    const unsubscribe = signUnsubscribeToken(
      { projectId: 'acme', channel: 'email', address: 'a@example.com', topic: null, expiresAt: 2_000_000_000 },
      current,
    );
    expect(verifyPreferenceToken(unsubscribe, [current], 1_900_000_000)).toBeUndefined();
    expect(verifyUnsubscribeToken(token, [current], 1_900_000_000)).toBeUndefined();
    expect(verifyPreferenceToken('p1.j.e30', [current])).toBeUndefined();
  });
});
