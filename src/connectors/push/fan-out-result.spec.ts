import { ProviderError } from '../provider-error.js';
import { combineDeviceOutcomes, type DeviceAttempt } from './fan-out-result.js';

const ok = (platform: DeviceAttempt['platform'], id: string | null): DeviceAttempt => ({
  platform,
  outcome: { ok: true, id },
});
const refused = (platform: DeviceAttempt['platform'], error: ProviderError): DeviceAttempt => ({
  platform,
  outcome: { ok: false, error },
});

describe('combineDeviceOutcomes', () => {
  it('is sent when any device accepted, with every accepted id', () => {
    const result = combineDeviceOutcomes([
      refused('web', ProviderError.permanent('gone', { deadRecipient: true })),
      ok('fcm', 'projects/p/messages/1'),
      ok('apns', null),
    ]);
    expect(result).toEqual({ ok: true, providerMessageId: 'fcm:projects/p/messages/1 apns' });
  });

  it('prefers rate limited (longest wait), then transient, then permanent', () => {
    const limited = combineDeviceOutcomes([
      refused('web', ProviderError.transient('502')),
      refused('fcm', ProviderError.rateLimited('quota', 60_000)),
      refused('apns', ProviderError.rateLimited('too many', 5_000)),
    ]);
    expect(!limited.ok && [limited.error.kind, limited.error.retryAfterMs]).toEqual(['rate_limited', 60_000]);
    const transient = combineDeviceOutcomes([
      refused('web', ProviderError.permanent('400')),
      refused('fcm', ProviderError.transient('503', { retryAfterMs: 9_000 })),
    ]);
    expect(!transient.ok && [transient.error.kind, transient.error.retryAfterMs]).toEqual(['transient', 9_000]);
  });

  it('is permanent when every device refused for good, dead only when every device is gone, and says what each answered', () => {
    const mixed = combineDeviceOutcomes([
      refused('web', ProviderError.permanent('HTTP 410', { deadRecipient: true })),
      refused('apns', ProviderError.permanent('BadTopic')),
    ]);
    expect(!mixed.ok && [mixed.error.kind, mixed.error.deadRecipient, mixed.error.message]).toEqual([
      'permanent',
      false,
      'no device accepted the push: web: HTTP 410; apns: BadTopic',
    ]);
    const dead = combineDeviceOutcomes([
      refused('fcm', ProviderError.permanent('UNREGISTERED', { deadRecipient: true, providerCode: 'UNREGISTERED' })),
    ]);
    expect(!dead.ok && [dead.error.deadRecipient, dead.error.providerCode]).toEqual([true, 'UNREGISTERED']);
  });
});
