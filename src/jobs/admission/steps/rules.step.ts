import { Injectable } from '@nestjs/common';
import { CapsService } from '../../../governance/caps/caps.service.js';
import type { RecipientCap } from '../../../governance/caps/cap-rules.js';
import { GovernanceService } from '../../../governance/governance.service.js';
import type { AdmissionRequest, Target } from '../admission.types.js';

/** A fan-out larger than this reads its rules with the bulk lookups (a probe first), a small send in one round trip. */
const ONE_ROUND_TRIP_MAX = 16;

/**
 * The recipients' own rules, in the order they are counted: suppressions, then preferences
 * (opt-outs; not for transactional messages), then per-recipient caps. A target stopped by one
 * is skipped with that rule's reason; the caps' rules are returned for the insert, which
 * applies them (a single send holds its slot under the subscriber's lock). The worker checks
 * all of them again before each send.
 */
@Injectable()
export class RulesStep {
  constructor(
    private readonly governance: GovernanceService,
    private readonly caps: CapsService,
  ) {}

  async apply(request: AdmissionRequest, targets: readonly Target[]): Promise<{ caps: RecipientCap[] }> {
    const live = targets.filter((t) => !t.skip);
    if (live.length === 0) return { caps: [] };
    const message = {
      marketing: request.marketing,
      topic: request.topic,
      payload: request.payload,
      templateId: request.templateId,
    };
    const transactional = request.payload.transactional === true;
    const subscriberIds = [...new Set(live.flatMap((t) => (t.subscriberId !== null ? [t.subscriberId] : [])))];

    let suppressed: (string | null)[];
    let optedOut: (subscriberId: string | null, channel: Target['channel'], i: number) => string | null;
    let caps: RecipientCap[];
    if (live.length <= ONE_ROUND_TRIP_MAX && subscriberIds.length <= 1) {
      const preferencesOf = !transactional && subscriberIds.length === 1 ? subscriberIds[0] : null;
      const checks = await this.governance.sendChecks(
        request.project.id,
        message,
        live,
        preferencesOf,
        subscriberIds.length > 0,
      );
      suppressed = checks.suppressed;
      optedOut = (_s, _c, i) => checks.optedOut[i];
      caps = checks.caps;
    } else {
      const capsRead = subscriberIds.length ? this.caps.list(request.project.id) : Promise.resolve([]);
      capsRead.catch(() => undefined);
      const [found, optOutOf] = await Promise.all([
        this.governance.suppressedTargets(request.project.id, request.marketing, live),
        transactional ? undefined : this.governance.optOutsOf(request.project.id, message, subscriberIds),
      ]);
      suppressed = found;
      optedOut = (subscriberId, channel) =>
        optOutOf && subscriberId !== null ? optOutOf(subscriberId, channel) : null;
      caps = await capsRead;
    }
    live.forEach((t, i) => {
      const suppression = suppressed[i];
      if (suppression) {
        t.skip = { rule: 'suppressed', reason: suppression };
        return;
      }
      const optOut = optedOut(t.subscriberId, t.channel, i);
      if (optOut) t.skip = { rule: 'opted_out', reason: optOut };
    });
    return { caps };
  }
}
