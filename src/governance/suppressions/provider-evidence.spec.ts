import { ProviderError } from '../../connectors/provider-error.js';
import { suppressionFromRefusal } from './provider-evidence.js';

describe('suppressionFromRefusal', () => {
  it('an email hard bounce suppresses the address for everything', () => {
    expect(
      suppressionFromRefusal('email', ProviderError.permanent('550 no such user', { deadRecipient: true })),
    ).toEqual({ reason: 'bounce', scope: 'all' });
  });
  it('Twilio 21610 is a STOP for all messages; WhatsApp 131050 stops marketing only', () => {
    expect(suppressionFromRefusal('sms', ProviderError.permanent('unsubscribed', { providerCode: '21610' }))).toEqual({
      reason: 'stop',
      scope: 'all',
    });
    expect(
      suppressionFromRefusal('whatsapp', ProviderError.permanent('user stopped marketing', { providerCode: '131050' })),
    ).toEqual({ reason: 'stop', scope: 'marketing' });
    expect(
      suppressionFromRefusal(
        'sms',
        ProviderError.permanent('Blocked due to STOP message', { providerCode: '40300', deadRecipient: true }),
      ),
    ).toEqual({ reason: 'stop', scope: 'all' });
  });
  it('a dead SMS or chat address is invalid; a dead push token or a plain refusal suppresses nothing', () => {
    expect(
      suppressionFromRefusal('sms', ProviderError.permanent('not a mobile number', { deadRecipient: true })),
    ).toEqual({ reason: 'invalid', scope: 'all' });
    expect(
      suppressionFromRefusal('telegram', ProviderError.permanent('chat not found', { deadRecipient: true })),
    ).toEqual({ reason: 'invalid', scope: 'all' });
    expect(suppressionFromRefusal('push', ProviderError.permanent('Unregistered', { deadRecipient: true }))).toBeNull();
    expect(suppressionFromRefusal('email', ProviderError.permanent('HTTP 422: bad from address'))).toBeNull();
    expect(suppressionFromRefusal('email', ProviderError.transient('timeout', { deadRecipient: true }))).toBeNull();
  });
});
