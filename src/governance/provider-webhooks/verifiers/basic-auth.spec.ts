import { verifyBasicAuth } from './basic-auth.js';
import { VerificationError } from './verification.js';

describe('verifyBasicAuth', () => {
  const auth = (user: string, pass: string) => ({
    authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`,
  });

  it('accepts the configured credentials (a password may contain ":")', () => {
    expect(() =>
      verifyBasicAuth(auth('postmark', 'p:ss-0123456789abcdef'), 'postmark', 'p:ss-0123456789abcdef'),
    ).not.toThrow();
  });

  it('refuses a wrong password, a wrong user, a missing header and another scheme', () => {
    expect(() => verifyBasicAuth(auth('postmark', 'nope'), 'postmark', 'secret-0123456789')).toThrow(
      /wrong webhook credentials/,
    );
    expect(() => verifyBasicAuth(auth('other', 'secret-0123456789'), 'postmark', 'secret-0123456789')).toThrow(
      /wrong webhook credentials/,
    );
    expect(() => verifyBasicAuth({}, 'postmark', 'secret-0123456789')).toThrow(/missing Authorization/);
    expect(() => verifyBasicAuth({ authorization: 'Bearer abc' }, 'postmark', 'secret-0123456789')).toThrow(
      VerificationError,
    );
  });
});
