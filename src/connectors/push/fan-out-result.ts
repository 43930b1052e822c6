import type { DeliveryResult } from '../connector.js';
import { ProviderError } from '../provider-error.js';
import type { PushPlatform } from '../../domain/push-token.types.js';
import type { DeviceOutcome } from './push-device.js';

export interface DeviceAttempt {
  platform: PushPlatform;
  outcome: DeviceOutcome;
}

/**
 * One job's result from its devices' answers (notifyd's rule): accepted when at least one
 * device accepted it; otherwise the most hopeful refusal decides — rate limited (longest wait)
 * before transient before permanent — so that a retry happens whenever one could help. Dead
 * only when every device was dead. The message lists each device's answer.
 */
export function combineDeviceOutcomes(attempts: readonly DeviceAttempt[]): DeliveryResult {
  const accepted = attempts.filter((a) => a.outcome.ok);
  if (accepted.length > 0) {
    const ids = accepted.map((a) => (a.outcome.ok && a.outcome.id ? `${a.platform}:${a.outcome.id}` : a.platform));
    return { ok: true, providerMessageId: ids.join(' ').slice(0, 1000) };
  }
  const errors = attempts.map((a) => ({ platform: a.platform, error: (a.outcome as { error: ProviderError }).error }));
  const summary =
    `no device accepted the push: ${errors.map((e) => `${e.platform}: ${e.error.message}`).join('; ')}`.slice(0, 2000);
  const longest = (list: typeof errors) => {
    const waits = list.map((e) => e.error.retryAfterMs).filter((ms): ms is number => ms !== undefined);
    return waits.length ? Math.max(...waits) : undefined;
  };
  const codeOf = (list: typeof errors) => list.find((e) => e.error.providerCode)?.error.providerCode;
  const limited = errors.filter((e) => e.error.kind === 'rate_limited');
  if (limited.length)
    return {
      ok: false,
      error: ProviderError.rateLimited(summary, longest(limited), { providerCode: codeOf(limited) }),
    };
  const transient = errors.filter((e) => e.error.kind === 'transient');
  if (transient.length)
    return {
      ok: false,
      error: ProviderError.transient(summary, { retryAfterMs: longest(transient), providerCode: codeOf(transient) }),
    };
  const providerCode = codeOf(errors);
  return {
    ok: false,
    error: ProviderError.permanent(summary, {
      deadRecipient: errors.every((e) => e.error.deadRecipient),
      providerCode,
    }),
  };
}
