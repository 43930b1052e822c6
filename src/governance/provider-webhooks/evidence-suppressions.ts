import { Injectable, Logger } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';

/** One do-not-contact entry that provider evidence asks for. */
export interface EvidenceSuppression {
  projectId: string;
  channel: 'email' | 'sms' | 'whatsapp';
  address: string;
  scope: 'all' | 'marketing';
  reason: 'bounce' | 'complaint' | 'stop';
  /** Audit actor, e.g. `resend-webhook`. */
  source: string;
  evidence: Record<string, unknown>;
  sourceJobId: string | null;
  providerEventId: string;
}

/**
 * SEAM: where provider evidence meets the suppression list (helper 6a's SuppressionsService).
 * Called inside the evidence transaction so that the event, the job's change and the
 * suppression commit together. Until the suppressions table lands on main this records
 * nothing; the request stays visible on the provider event's payload (`suppress`).
 */
@Injectable()
export class EvidenceSuppressions {
  private readonly logger = new Logger(EvidenceSuppressions.name);

  async suppress(_runner: QueryRunner, entries: readonly EvidenceSuppression[]): Promise<number> {
    if (entries.length) this.logger.warn(`${entries.length} suppression(s) requested by provider evidence: suppression list not available in this build`);
    return 0;
  }
}
