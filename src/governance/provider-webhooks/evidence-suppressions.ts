import { Injectable, Logger } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { normaliseAddress } from '../suppressions/suppression-address.js';
import { SuppressionsService } from '../suppressions/suppressions.service.js';

/** One do-not-contact entry that provider evidence asks for. */
export interface EvidenceSuppression {
  projectId: string;
  channel: 'email' | 'sms' | 'whatsapp';
  address: string;
  scope: 'all' | 'marketing';
  reason: 'bounce' | 'complaint' | 'stop' | 'unsubscribe';
  /** Audit actor, e.g. `resend-webhook`. */
  source: string;
  evidence: Record<string, unknown>;
  sourceJobId: string | null;
  providerEventId: string;
}

/**
 * Where provider evidence meets the suppression list: SuppressionsService inside the evidence
 * transaction, so that the event, the job's change and the suppression commit together (and a
 * replay, deduplicated, cannot leave a bounce without its suppression). An address the channel
 * cannot parse is skipped with a warning rather than refusing the provider's whole event.
 */
@Injectable()
export class EvidenceSuppressions {
  private readonly logger = new Logger(EvidenceSuppressions.name);

  constructor(private readonly suppressions: SuppressionsService) {}

  /** Returns how many suppressions were created (existing active ones are left as they are). */
  async suppress(runner: QueryRunner, entries: readonly EvidenceSuppression[]): Promise<number> {
    let created = 0;
    for (const e of entries) {
      if (!normaliseAddress(e.channel, e.address).ok) {
        this.logger.warn(
          `${e.source}: not suppressing an unparseable ${e.channel} address (event ${e.providerEventId})`,
        );
        continue;
      }
      const result = await this.suppressions.suppress(
        {
          projectId: e.projectId,
          channel: e.channel,
          address: e.address,
          scope: e.scope,
          reason: e.reason,
          source: e.source,
          evidence: e.evidence,
          sourceJobId: e.sourceJobId,
          providerEventId: e.providerEventId,
        },
        runner,
      );
      if (result.created) created++;
    }
    return created;
  }
}
