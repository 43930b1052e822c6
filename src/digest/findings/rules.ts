import type { FindingRule } from '../digest.types.js';
import { autovacuumOff } from './autovacuum-off.finding.js';
import { bounceRate } from './bounce-rate.finding.js';
import { breakerOpen } from './breaker-open.finding.js';
import { complaintRate } from './complaint-rate.finding.js';
import { complaints } from './complaints.finding.js';
import { emailFallbackMissing } from './email-fallback-missing.finding.js';
import { emailProviderLog } from './email-provider-log.finding.js';
import { emailProviderMissing } from './email-provider-missing.finding.js';
import { failureRate } from './failure-rate.finding.js';
import { jobsBloat } from './jobs-bloat.finding.js';
import { lanePaused } from './lane-paused.finding.js';
import { notifyLock } from './notify-lock.finding.js';
import { oldestWaiting } from './oldest-waiting.finding.js';
import { publicUrlMissing } from './public-url-missing.finding.js';
import { quotaExhausted } from './quota-exhausted.finding.js';
import { providerFailing } from './provider-failing.finding.js';
import { senderMissing } from './sender-missing.finding.js';
import { stuckProcessing } from './stuck-processing.finding.js';
import { webhookDisabled } from './webhook-disabled.finding.js';
import { webhookPaused } from './webhook-paused.finding.js';
import { workerMissing } from './worker-missing.finding.js';

/**
 * Every rule. Ranking orders findings by severity, then by harm (findings/rank.ts); findings
 * that tie keep this order. To add a finding: one file exporting a FindingRule, listed here,
 * documented in docs/OPERATIONS.md.
 */
export const FINDING_RULES: readonly FindingRule[] = [
  workerMissing,
  emailProviderMissing,
  emailProviderLog,
  quotaExhausted,
  oldestWaiting,
  failureRate,
  bounceRate,
  complaintRate,
  jobsBloat,
  autovacuumOff,
  stuckProcessing,
  providerFailing,
  breakerOpen,
  lanePaused,
  complaints,
  senderMissing,
  publicUrlMissing,
  webhookDisabled,
  webhookPaused,
  notifyLock,
  emailFallbackMissing,
];
