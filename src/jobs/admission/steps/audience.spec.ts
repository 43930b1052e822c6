import type { Channel } from '../../../domain/channels.js';
import type { SubscriberAddresses } from '../../../subscribers/subscriber.types.js';
import type { AdmissionRequest, Audience } from '../admission.types.js';
import { resolveAudience, subscriberIdsOf } from './audience.js';

const at = new Date('2026-12-01T10:00:00Z');
const request = (channels: Channel[], audience: Audience, idempotencyKey: string | null = null): AdmissionRequest => ({
  project: {
    id: 'p',
    name: 'P',
    channels: [],
    settings: {},
    fromEmail: null,
    fromName: null,
    rateLimitPerMin: 1000,
    tokenEpoch: '0',
  },
  channels,
  audience,
  payload: {},
  priority: 50,
  marketing: false,
  requestedAt: at,
  idempotencyKey,
  templateId: null,
  topic: null,
  unconfiguredChannels: 'skip',
});
const jane: SubscriberAddresses = {
  id: 'jane',
  email: 'jane@example.com',
  phone: null,
  locale: null,
  timezone: 'Europe/Paris',
  data: { telegram_chat_id: 'nope' },
};
const context = (unconfigured: [Channel, string][] = []) => ({
  subscribers: new Map([['jane', jane]]),
  unconfigured: new Map(unconfigured),
  connectorCheck: (channel: Channel) =>
    channel === 'telegram' ? (a: string) => (/^-?\d+$/.test(a) ? undefined : 'is not a Telegram chat id') : undefined,
});

describe('admission: audience', () => {
  it('reads the subscribers a request names: a fan-out, a send’s subscriber, or an in-app `to` (an id there)', () => {
    expect(subscriberIdsOf(request(['email'], { kind: 'many', subscriberIds: ['a', 'b', 'a'] }))).toEqual(['a', 'b']);
    expect(subscriberIdsOf(request(['email'], { kind: 'one', subscriberId: 'jane' }))).toEqual(['jane']);
    expect(subscriberIdsOf(request(['email'], { kind: 'one', to: 'x@example.com' }))).toEqual([]);
    expect(subscriberIdsOf(request(['email', 'in_app'], { kind: 'one', to: 'jane' }))).toEqual(['jane']);
  });

  it('addresses a subscriber per channel and says why a channel is skipped', () => {
    const targets = resolveAudience(
      request(['email', 'sms', 'telegram', 'in_app', 'push'], { kind: 'one', subscriberId: 'jane' }, 'k1'),
      context([['push', 'push connector not configured: set PUSH_PROVIDER']]),
    );
    expect(targets.map((t) => [t.channel, t.recipient, t.skip?.rule ?? 'ok'])).toEqual([
      ['email', 'jane@example.com', 'ok'],
      ['sms', '', 'no_address'],
      ['telegram', 'nope', 'invalid_address'],
      ['in_app', 'jane', 'ok'],
      ['push', '', 'not_configured'],
    ]);
    expect(targets[0]).toMatchObject({
      subscriberId: 'jane',
      timezone: 'Europe/Paris',
      scheduledAt: at,
      idempotencyKey: 'k1-email',
    });
    expect(targets[1].skip!.reason).toBe('subscriber has no phone for sms');
    expect(targets[2].skip!.reason).toContain('Telegram chat id');
  });

  it('checks `to` on every channel: syntax, E.164 normalised, and an existing subscriber for in-app', () => {
    const targets = resolveAudience(
      request(['email', 'sms', 'in_app'], { kind: 'one', to: '+33 6 12 34 56 78' }),
      context(),
    );
    expect(targets.map((t) => [t.channel, t.recipient, t.skip?.rule ?? 'ok'])).toEqual([
      ['email', '+33 6 12 34 56 78', 'invalid_address'],
      ['sms', '+33612345678', 'ok'],
      ['in_app', '+33 6 12 34 56 78', 'unknown_subscriber'],
    ]);
    const inApp = resolveAudience(request(['in_app'], { kind: 'one', to: 'jane' }), context());
    expect(inApp[0]).toMatchObject({ recipient: 'jane', subscriberId: 'jane', timezone: 'Europe/Paris' });
  });

  it('fans out per subscriber × channel with per-pair keys; an unknown subscriber is skipped on each channel', () => {
    const targets = resolveAudience(
      request(['email', 'in_app'], { kind: 'many', subscriberIds: ['jane', 'ghost', 'jane'] }, 'camp'),
      context(),
    );
    expect(targets.map((t) => [t.subscriberId, t.channel, t.skip?.rule ?? 'ok', t.idempotencyKey])).toEqual([
      ['jane', 'email', 'ok', 'camp-jane-email'],
      ['jane', 'in_app', 'ok', 'camp-jane-in_app'],
      ['ghost', 'email', 'unknown_subscriber', 'camp-ghost-email'],
      ['ghost', 'in_app', 'unknown_subscriber', 'camp-ghost-in_app'],
    ]);
  });
});
