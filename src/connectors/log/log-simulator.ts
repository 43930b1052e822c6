import { randomUUID } from 'node:crypto';
import type { DeliveryResult } from '../connector.js';
import { ProviderError } from '../provider-error.js';

/**
 * The `log` provider's test recipients: email addresses at this domain (a reserved `.test`
 * name, never resolvable) make it answer as a real provider would, so that a developer can
 * rehearse failures without an SMTP catcher. `<kind>+<anything>@simulator.notifyd.test` works
 * too (a bounced address is suppressed, so a fresh one is needed for a second try).
 *
 *   bounce@…     SMTP 550 5.1.1: permanent, dead recipient → job bounced, bounce suppression,
 *                job.bounced and suppression.created
 *   complaint@…  accepted, then a spam complaint arrives as provider evidence → job.complained,
 *                complaint suppression, suppression.created
 *   transient@…  HTTP 503 → retried with backoff until max_attempts, then failed
 *   ratelimit@…  HTTP 429 with Retry-After: 5 → the email `log` lane pauses 5 s, the job waits
 *                without using an attempt
 *   slow@…       answers after 10 s (beyond WORKER_SEND_TIMEOUT_MS, a timeout: transient)
 * Documented in docs/CONNECTORS.md ("The log provider's test recipients").
 */
export const SIMULATOR_DOMAIN = 'simulator.notifyd.test';

export const SIMULATED_KINDS = ['bounce', 'complaint', 'transient', 'ratelimit', 'slow'] as const;
export type SimulatedKind = (typeof SIMULATED_KINDS)[number];

/** Provider message ids of accepted complaint@ messages: the evidence listener looks for this prefix. */
export const SIMULATED_COMPLAINT_ID_PREFIX = 'log-sim-complaint-';

export const SIMULATED_RETRY_AFTER_MS = 5_000;
export const SIMULATED_SLOW_MS = 10_000;

/** The simulation an address asks for, if it is a test recipient. */
export function simulatedKind(recipient: string): SimulatedKind | undefined {
  const at = recipient.lastIndexOf('@');
  if (at < 0 || recipient.slice(at + 1).toLowerCase() !== SIMULATOR_DOMAIN) return undefined;
  const local = recipient.slice(0, at).toLowerCase().split('+')[0];
  return (SIMULATED_KINDS as readonly string[]).includes(local) ? (local as SimulatedKind) : undefined;
}

/** The answer for a test recipient (slow is waited for by the connector, then accepted). */
export function simulatedAnswer(kind: SimulatedKind): DeliveryResult {
  switch (kind) {
    case 'bounce':
      return {
        ok: false,
        error: ProviderError.permanent('log simulator: SMTP 550 5.1.1 mailbox does not exist', { deadRecipient: true }),
      };
    case 'complaint':
      return { ok: true, providerMessageId: `${SIMULATED_COMPLAINT_ID_PREFIX}${randomUUID()}` };
    case 'transient':
      return { ok: false, error: ProviderError.transient('log simulator: HTTP 503 service unavailable') };
    case 'ratelimit':
      return {
        ok: false,
        error: ProviderError.rateLimited(
          `log simulator: HTTP 429 Too Many Requests (Retry-After: ${SIMULATED_RETRY_AFTER_MS / 1000})`,
          SIMULATED_RETRY_AFTER_MS,
        ),
      };
    case 'slow':
      return { ok: true, providerMessageId: `log_${randomUUID()}` };
  }
}
