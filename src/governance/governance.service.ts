import { Injectable } from '@nestjs/common';

/** What governance decides for one claimed job before its provider call. */
export type Verdict =
  | { action: 'send' }
  /** Not sent, closed as sent with provider `skipped` (e.g. opted out at send time). */
  | { action: 'skip'; reason: string }
  /** Not sent, failed as suppressed; the provider is never called. */
  | { action: 'suppress'; reason: string };

export interface ScreenedJob {
  id: string;
  projectId: string;
  channel: string;
  recipient: string;
  subscriberId: string | null;
  topic: string | null;
  payload: Record<string, unknown>;
  marketing: boolean;
}

/** The rules for a claimed batch, loaded once per batch (never one query per job). */
export interface Screening {
  verdict(job: ScreenedJob): Verdict;
}

const SEND: Verdict = { action: 'send' };

/**
 * Who may be sent what. The worker asks once per claimed batch; the governance issue adds
 * suppressions, preferences and windows here, with per-job fallback if a prefetch fails.
 */
@Injectable()
export class GovernanceService {
  async screen(_jobs: readonly ScreenedJob[]): Promise<Screening> {
    return { verdict: () => SEND };
  }
}
