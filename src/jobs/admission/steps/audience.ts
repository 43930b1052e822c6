import type { Channel } from '../../../domain/channels.js';
import type { SubscriberAddresses } from '../../../subscribers/subscriber.types.js';
import { addressFor, missingAddressReason } from '../../../subscribers/addresses.js';
import type { AdmissionRequest, Skip, Target } from '../admission.types.js';
import { addressedBySubscriberId, checkRecipient } from './recipient-check.js';

/** The subscriber ids an audience needs read: a fan-out's, a send's subscriber, or the `to` of an in-app or push send (an id there). */
export function subscriberIdsOf(request: Pick<AdmissionRequest, 'audience' | 'channels'>): string[] {
  const a = request.audience;
  if (a.kind === 'many') return [...new Set(a.subscriberIds)];
  if (a.subscriberId !== undefined) return [a.subscriberId];
  return a.to !== undefined && request.channels.some(addressedBySubscriberId) ? [a.to] : [];
}

export interface AudienceContext {
  /** The subscribers read for subscriberIdsOf(request); absent ids are unknown. */
  subscribers: ReadonlyMap<string, SubscriberAddresses>;
  /** Channels that cannot deliver (not configured), with why. */
  unconfigured: ReadonlyMap<Channel, string>;
  /** The selected connector's own address rule for a channel, if any. */
  connectorCheck(channel: Channel): ((address: string) => string | undefined) | undefined;
}

/**
 * One target per recipient × channel, in request order, each either addressed or skipped
 * with the reason (channel not configured, unknown subscriber, no address on the channel, an
 * address the channel cannot take). Nothing is read here: the caller passes what it read.
 */
export function resolveAudience(request: AdmissionRequest, context: AudienceContext): Target[] {
  const a = request.audience;
  const targets: Target[] = [];
  const add = (
    channel: Channel,
    subscriberId: string | null,
    recipient: string,
    timezone: string | null,
    keySuffix: string,
    skip?: Skip,
  ) => {
    targets.push({
      channel,
      subscriberId,
      recipient,
      timezone,
      scheduledAt: request.requestedAt,
      idempotencyKey: request.idempotencyKey ? `${request.idempotencyKey}-${keySuffix}${channel}` : null,
      ...(skip ? { skip } : {}),
    });
  };
  if (a.kind === 'many') {
    for (const id of new Set(a.subscriberIds)) {
      const subscriber = context.subscribers.get(id);
      for (const channel of request.channels) {
        const skip = context.unconfigured.has(channel)
          ? { rule: 'not_configured' as const, reason: context.unconfigured.get(channel)! }
          : undefined;
        const { recipient, problem } = subscriberRecipient(channel, id, subscriber, context);
        add(channel, id, recipient, subscriber?.timezone ?? null, `${id}-`, skip ?? problem);
      }
    }
    return targets;
  }
  const subscriber = a.subscriberId !== undefined ? context.subscribers.get(a.subscriberId) : undefined;
  for (const channel of request.channels) {
    const unconfigured = context.unconfigured.get(channel);
    if (unconfigured) {
      add(channel, a.subscriberId ?? null, '', null, '', { rule: 'not_configured', reason: unconfigured });
      continue;
    }
    if (a.to !== undefined) {
      const { recipient, problem } = explicitRecipient(channel, a.to, context);
      // In-app and push address a subscriber by id: `to` is that subscriber (their preferences apply).
      const subscriberId = a.subscriberId ?? (addressedBySubscriberId(channel) ? a.to : null);
      add(
        channel,
        subscriberId,
        recipient,
        (subscriber ?? context.subscribers.get(a.to))?.timezone ?? null,
        '',
        problem,
      );
      continue;
    }
    const { recipient, problem } = subscriberRecipient(channel, a.subscriberId!, subscriber, context);
    add(channel, a.subscriberId!, recipient, subscriber?.timezone ?? null, '', problem);
  }
  return targets;
}

/** `to`, on one channel: an address, or (in-app, push) a subscriber id that must exist. */
function explicitRecipient(
  channel: Channel,
  to: string,
  context: AudienceContext,
): { recipient: string; problem?: Skip } {
  if (addressedBySubscriberId(channel)) {
    return context.subscribers.has(to) ? { recipient: to } : { recipient: to, problem: unknownSubscriber(to, channel) };
  }
  const check = checkRecipient(channel, to, context.connectorCheck(channel));
  return check.ok
    ? { recipient: check.address }
    : { recipient: to, problem: { rule: 'invalid_address', reason: `to ${check.problem} (${channel})` } };
}

/** A subscriber's address on one channel, checked as `to` would be. */
function subscriberRecipient(
  channel: Channel,
  id: string,
  subscriber: SubscriberAddresses | undefined,
  context: AudienceContext,
): { recipient: string; problem?: Skip } {
  if (!subscriber) return { recipient: '', problem: unknownSubscriber(id, channel) };
  const address = addressFor(channel, subscriber);
  if (!address) return { recipient: '', problem: { rule: 'no_address', reason: missingAddressReason(channel) } };
  if (addressedBySubscriberId(channel)) return { recipient: address };
  const check = checkRecipient(channel, address, context.connectorCheck(channel));
  return check.ok
    ? { recipient: check.address }
    : {
        recipient: address,
        problem: { rule: 'invalid_address', reason: `subscriber's ${channel} address ${check.problem}` },
      };
}

function unknownSubscriber(id: string, channel: Channel): Skip {
  return {
    rule: 'unknown_subscriber',
    reason: `unknown subscriber '${id}'${addressedBySubscriberId(channel) ? ` (${channel} needs an existing subscriber)` : ''}`,
  };
}
