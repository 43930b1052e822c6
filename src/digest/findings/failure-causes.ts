import type { FailureCause, FindingCall, FindingOwner } from '../digest.types.js';

/**
 * What kind of failure a normalised cause is, read from its text (the provider's status code is
 * kept by the normalisation, see sql/window.sql.ts REASON), because the fix and who makes it
 * depend on it:
 * - recipient: the provider refused the address itself (bad domain, malformed, unknown
 *   mailbox, 422/400 about the recipient). Retrying cannot succeed; the project's caller must
 *   correct its data and send again.
 * - suppressed: notifyd held it back (suppression list): right unless the suppression is wrong.
 * - credentials: 401/403, a key or token refused: the operator fixes the provider settings,
 *   then the failed jobs can be retried.
 * - sender: the sender or its domain is not verified/allowed: the operator (or the project's
 *   from_email) fixes it, then retry.
 * - gave_up: transient errors until the attempts ran out: the provider was down; retry once
 *   it is back.
 * - other: read one sample job.
 */
export type CauseKind = 'recipient' | 'suppressed' | 'credentials' | 'sender' | 'gave_up' | 'other';

const RULES: readonly [CauseKind, RegExp][] = [
  ['suppressed', /^suppressed\b/i],
  ['gave_up', /gave up after \d+ attempts/i],
  ['credentials', /\b(401|403)\b|unauthori[sz]ed|forbidden|api[ _-]?key|credential|access token|authenticat/i],
  [
    'sender',
    /\bsender\b|\bfrom\b.*(address|domain)|domain is not verified|not verified|unverified|verify (a|your) domain/i,
  ],
  [
    'recipient',
    /recipient|\bto\b.*(address|number|invalid)|invalid.*\b(email|address|number|phone)\b|\b(email|address|domain)\b.*\b(invalid|not valid|does not exist|unknown|malformed)\b|mailbox|no such user|unknown user|not a valid|unregistered|dead recipient|\b422\b.*<\*@/i,
  ],
];

export function causeKind(reason: string): CauseKind {
  return RULES.find(([, re]) => re.test(reason))?.[0] ?? 'other';
}

/** The domain of a cause's masked address (`<*@gmial.con>` → gmial.con), if it names one. */
export function causeDomain(reason: string): string | null {
  return /<\*@([^>\s]+)>/.exec(reason)?.[1]?.toLowerCase() ?? null;
}

export interface CauseAdvice {
  kind: CauseKind;
  owner: FindingOwner;
  /** The sentence saying what fixes it and who does it. */
  fix: string;
  calls: FindingCall[];
}

/** The fix that works for one failure cause, who makes it, and the exact calls. */
export function adviseOnCause(cause: FailureCause): CauseAdvice {
  const kind = causeKind(cause.reason);
  const projects = cause.project_ids.length ? cause.project_ids.join(', ') : 'the projects concerned';
  const domain = causeDomain(cause.reason);
  const list = (extra: Record<string, unknown> = {}): FindingCall => ({
    tool: 'list_jobs',
    arguments: {
      ...(cause.project_ids.length === 1 ? { project_id: cause.project_ids[0] } : {}),
      status: 'failed',
      channel: cause.channel,
      ...extra,
    },
    admin: false,
    purpose: 'list the jobs that failed this way',
  });
  const sample: FindingCall = {
    tool: 'job_timeline',
    arguments: { id: cause.sample_job_id },
    admin: false,
    purpose: 'read one of them, attempt by attempt',
  };
  const retry: FindingCall = {
    tool: 'retry_job',
    arguments: { id: cause.sample_job_id },
    admin: true,
    purpose: 'send it again once the cause is fixed (each failed job)',
  };
  switch (kind) {
    case 'recipient':
      return {
        kind,
        owner: 'caller',
        fix:
          `The provider refused the recipient itself${domain ? ` (domain ${domain})` : ''}: retrying these jobs cannot succeed (the provider refuses the same address again). ` +
          `The caller of project ${projects} must correct the addresses at their source and send again (a new send); the operator has nothing to fix.`,
        calls: [list(domain ? { recipient_domain: domain } : {}), sample],
      };
    case 'suppressed':
      return {
        kind,
        owner: 'caller',
        fix: `notifyd held these back: the addresses are on the suppression list of project ${projects}. Nothing to do unless a suppression is wrong; then release it (release_suppression) and send again.`,
        calls: [
          {
            tool: 'list_suppressions',
            arguments: cause.project_ids.length === 1 ? { project_id: cause.project_ids[0] } : {},
            admin: false,
            purpose: 'see what is suppressed and why',
          },
        ],
      };
    case 'credentials':
      return {
        kind,
        owner: 'operator',
        fix: `The provider refused notifyd's credentials: the operator fixes the ${cause.channel.toUpperCase()} provider's key (environment, or set_project_provider for a project's own), then retries the failed jobs.`,
        calls: [
          { tool: 'get_config', arguments: {}, admin: false, purpose: 'see which provider and settings are in force' },
          list(),
          retry,
        ],
      };
    case 'sender':
      return {
        kind,
        owner: 'operator',
        fix: `The provider refused the sender: the operator verifies the sending domain with the provider, or sets a verified from_email (update_project) or EMAIL_FROM, then retries the failed jobs.`,
        calls: [{ tool: 'get_config', arguments: {}, admin: false, purpose: 'see the sender in force' }, list(), retry],
      };
    case 'gave_up':
      return {
        kind,
        owner: 'operator',
        fix: 'The provider failed transiently until these jobs used every attempt: once it answers again (its status page, provider_failing), the operator retries them.',
        calls: [list(), retry],
      };
    default:
      return {
        kind,
        owner: 'operator',
        fix: 'Read one failed job to tell whether the caller’s data, the credentials or the sender is at fault; retry only once the cause is fixed.',
        calls: [sample, list()],
      };
  }
}
