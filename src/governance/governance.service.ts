import { Injectable, Logger } from '@nestjs/common';
import type { Channel } from '../domain/channels.js';
import type { ProviderError } from '../connectors/provider-error.js';
import { maskRecipient } from '../common/pii/mask.js';
import { suppressionFromRefusal } from './suppressions/provider-evidence.js';
import type { ActiveSuppression } from './suppressions/suppressions.repository.js';
import { blocks, SuppressionsService, suppressionKey } from './suppressions/suppressions.service.js';
import type { PreferenceRow } from './preferences/preference.types.js';
import { optOutReason, scopeIdsOf } from './preferences/preference-rules.js';
import { PreferencesService, subscriberKey } from './preferences/preferences.service.js';
import { SendWindowsService } from './send-windows/send-windows.service.js';
import { CapsService } from './caps/caps.service.js';
import type { RecipientCap } from './caps/cap-rules.js';
import { lookupAddress } from './suppressions/suppression-address.js';
import { SendChecksRepository } from './send-checks.repository.js';

/** What governance decides for one claimed job before its provider call. */
export type Verdict =
  | { action: 'send' }
  /** Not sent, closed as sent with provider `skipped` (e.g. opted out at send time). */
  | { action: 'skip'; reason: string }
  /** Not sent, failed as suppressed; the provider is never called. */
  | { action: 'suppress'; reason: string }
  /**
   * Not now, back to the queue with the attempt given back: the rules could not be read
   * (database error; due again shortly), or the job is outside its send window (due `until`).
   */
  | { action: 'defer'; reason: string; until?: Date };

export interface ScreenedJob {
  id: string;
  projectId: string;
  channel: Channel;
  recipient: string;
  subscriberId: string | null;
  topic: string | null;
  payload: Record<string, unknown>;
  marketing: boolean;
  /** The job's stored template: a preference scope (workflow-or-template). */
  templateId?: string | null;
}

/** The rules for a claimed batch, loaded once per batch (never one query per job). */
export interface Screening {
  verdict(job: ScreenedJob): Verdict;
}

/** A synchronous provider refusal, as the worker saw it. */
export interface Refusal {
  jobId: string;
  projectId: string;
  channel: Channel;
  recipient: string;
  provider: string;
  error: ProviderError;
}

const SEND: Verdict = { action: 'send' };
const suppressedReason = (channel: Channel, s: ActiveSuppression) =>
  `recipient is suppressed on ${channel} (${s.reason}, scope ${s.scope})`;
const isTransactional = (job: ScreenedJob) => job.payload.transactional === true;

/** Enqueue's answer per target from the active suppressions `found`: the reason one blocks it, or null. */
function suppressionReasons(
  found: Map<string, ActiveSuppression>,
  projectId: string,
  marketing: boolean,
  targets: readonly { channel: Channel; recipient: string }[],
): (string | null)[] {
  // The common case of a fan-out: no suppression at all. Answered here, not by match(), so that
  // a 5 000-recipient call builds no key object per recipient.
  if (found.size === 0) return targets.map(() => null);
  return targets.map((t) => {
    const s = SuppressionsService.match(found, { projectId, channel: t.channel, address: t.recipient });
    return s && blocks(s, marketing) ? suppressedReason(t.channel, s) : null;
  });
}
/** How many per-job lookups run at once when the batch prefetch failed. */
const FALLBACK_CONCURRENCY = 8;

/** What the enqueue checks read of a message: its kind, topic, and what names its preference scopes. */
export interface CheckedMessage {
  marketing: boolean;
  topic: string | null;
  payload: { vars?: Record<string, unknown> };
  templateId: string | null;
}

/**
 * Who may be sent what, asked by the worker once per claimed batch: the batch's suppressions
 * are read in one lookup (after a probe of which projects have any); if that fails, each job is
 * looked up on its own, and a job whose lookup fails too is deferred, never sent unchecked.
 */
@Injectable()
export class GovernanceService {
  private readonly logger = new Logger(GovernanceService.name);

  constructor(
    private readonly suppressions: SuppressionsService,
    private readonly sendWindows: SendWindowsService,
    private readonly caps: CapsService,
    private readonly preferences: PreferencesService,
    private readonly sendCheckRows: SendChecksRepository,
  ) {}

  async screen(jobs: readonly ScreenedJob[]): Promise<Screening> {
    // The caps' rules are read alongside the other rules (not one round trip after them);
    // admit() below counts and records under its own lock, so caps stay exact.
    const capRules = this.caps.rulesFor(jobs);
    const [{ found, unknown }, outsideWindow, { prefs, unreadable }] = await Promise.all([
      this.prefetchSuppressions(jobs),
      this.sendWindows.screen(jobs),
      this.prefetchPreferences(jobs),
    ]);
    const before = (job: ScreenedJob): Verdict => {
      if (unknown.has(job.id)) return { action: 'defer', reason: 'suppression list unreadable; retrying' };
      const s = SuppressionsService.match(found, {
        projectId: job.projectId,
        channel: job.channel,
        address: job.recipient,
      });
      // transactional never bypasses a suppression; a marketing-scope one spares non-marketing messages.
      if (s && blocks(s, job.marketing))
        return {
          action: 'suppress',
          reason: `${job.channel} address is on the suppression list (${s.reason}, scope ${s.scope}, id ${s.id})`,
        };
      // Preferences (not for transactional messages): an opt-out closes the job unsent (notifyd: sent, provider skipped).
      if (!isTransactional(job) && job.subscriberId) {
        const key = subscriberKey(job.projectId, job.subscriberId);
        if (unreadable.has(key)) return { action: 'defer', reason: 'preferences unreadable; retrying' };
        const reason = optOutReason(prefs.get(key) ?? [], {
          channel: job.channel,
          topic: job.topic,
          marketing: job.marketing,
          scopeIds: scopeIdsOf(job.payload, job.templateId),
        });
        if (reason) return { action: 'skip', reason };
      }
      // After suppressions: a suppressed job fails now rather than waiting for its window.
      const deferral = outsideWindow.get(job.id);
      if (deferral) return { action: 'defer', until: deferral.until, reason: deferral.reason };
      return SEND;
    };
    // One verdict per job (the worker asks once per job; the caps filter below asked too).
    const verdicts = new Map<string, Verdict>();
    for (const job of jobs) verdicts.set(job.id, before(job));
    // Caps last: only a job that would be sent takes a slot (recorded as it is let through).
    const capped = await this.caps.admit(
      jobs.filter((j) => verdicts.get(j.id)!.action === 'send'),
      capRules,
    );
    return {
      verdict: (job) => {
        const verdict = verdicts.get(job.id) ?? before(job);
        if (verdict.action !== 'send') return verdict;
        if (capped.unchecked.has(job.id)) return { action: 'defer', reason: 'recipient caps unreadable; retrying' };
        const over = capped.over.get(job.id);
        return over ? { action: 'skip', reason: over } : SEND;
      },
    };
  }

  /**
   * Enqueue's check, one lookup for all targets (none when the project has no suppression at
   * all): for each target, why it must not be queued (its address is suppressed for this kind
   * of message), or null. A database error throws: the request fails rather than queueing
   * unchecked (the worker checks again anyway).
   */
  async suppressedTargets(
    projectId: string,
    marketing: boolean,
    targets: readonly { channel: Channel; recipient: string }[],
  ): Promise<(string | null)[]> {
    if (targets.length === 0) return [];
    const found = await this.suppressions.activeForProject(projectId, targets);
    return suppressionReasons(found, projectId, marketing, targets);
  }

  /**
   * Enqueue's preference check for distinct subscribers of one project (one lookup, none when
   * nobody in the project stored a preference): a function giving the opt-out reason of a
   * subscriber on a channel, or null. Transactional sends do not call it. Without any stored
   * preference among them (the common case of a fan-out) the answer is null for all, with no
   * work per subscriber.
   */
  async optOutsOf(
    projectId: string,
    message: CheckedMessage,
    subscriberIds: readonly string[],
  ): Promise<(subscriberId: string, channel: Channel) => string | null> {
    const prefs = await this.preferences.forProjectSubscribers(projectId, subscriberIds);
    if (prefs.size === 0) return () => null;
    const scopeIds = scopeIdsOf(message.payload, message.templateId);
    return (subscriberId, channel) =>
      optOutReason(prefs.get(subscriberId) ?? [], {
        channel,
        topic: message.topic,
        marketing: message.marketing,
        scopeIds,
      });
  }

  /**
   * /v1/send's enqueue checks in one round trip (issue 9): for each target, the suppression
   * that stops it and, when `preferencesOf` is a subscriber (not for transactional sends), the
   * opt-out — the same answers as suppressedTargets and optOutsOf (null = none) — and the
   * project's caps when `withCaps`. The worker checks all of them again before sending.
   */
  async sendChecks(
    projectId: string,
    message: CheckedMessage,
    targets: readonly { channel: Channel; recipient: string }[],
    preferencesOf: string | null,
    withCaps: boolean,
  ): Promise<{ suppressed: (string | null)[]; optedOut: (string | null)[]; caps: RecipientCap[] }> {
    if (targets.length === 0) return { suppressed: [], optedOut: [], caps: [] };
    const keys = targets.map((t) => ({ channel: t.channel, address: lookupAddress(t.channel, t.recipient) }));
    const rows = await this.sendCheckRows.read(projectId, keys, preferencesOf, withCaps);
    const found = new Map(rows.suppressions.map((r) => [suppressionKey(r), r]));
    const suppressed = suppressionReasons(found, projectId, message.marketing, targets);
    const scopeIds = scopeIdsOf(message.payload, message.templateId);
    const optedOut = targets.map((t) =>
      preferencesOf
        ? optOutReason(rows.preferences, {
            channel: t.channel,
            topic: message.topic,
            marketing: message.marketing,
            scopeIds,
          })
        : null,
    );
    return { suppressed, optedOut, caps: rows.caps };
  }

  /** Records the suppressions that synchronous provider refusals prove (hard bounce, STOP…). */
  async recordRefusals(refusals: readonly Refusal[]): Promise<void> {
    for (const r of refusals) {
      const rule = suppressionFromRefusal(r.channel, r.error);
      if (!rule) continue;
      try {
        await this.suppressions.suppress({
          projectId: r.projectId,
          channel: r.channel,
          address: r.recipient,
          scope: rule.scope,
          reason: rule.reason,
          source: 'worker',
          detail: `${r.provider}: ${r.error.message}`.slice(0, 500),
          evidence: {
            provider: r.provider,
            kind: r.error.kind,
            dead_recipient: r.error.deadRecipient,
            ...(r.error.providerCode ? { provider_code: r.error.providerCode } : {}),
          },
          sourceJobId: r.jobId,
        });
      } catch (err) {
        // The job's outcome is already decided; a lost suppression is logged for the operator.
        this.logger.warn(
          `could not record suppression for ${maskRecipient(r.recipient, r.channel)} (job ${r.jobId}): ${(err as Error).message}`,
        );
      }
    }
  }

  /** The batch's subscribers' preferences in one lookup; on failure per subscriber; a subscriber still unreadable is deferred. */
  private async prefetchPreferences(
    jobs: readonly ScreenedJob[],
  ): Promise<{ prefs: Map<string, PreferenceRow[]>; unreadable: Set<string> }> {
    const keys = jobs
      .filter((j) => j.subscriberId && !isTransactional(j))
      .map((j) => ({ projectId: j.projectId, subscriberId: j.subscriberId! }));
    try {
      return { prefs: await this.preferences.forSubscribers(keys), unreadable: new Set() };
    } catch (err) {
      this.logger.warn(
        `preference prefetch failed for ${keys.length} job(s), reading each subscriber: ${(err as Error).message}`,
      );
    }
    const prefs = new Map<string, PreferenceRow[]>();
    const unreadable = new Set<string>();
    for (const k of new Map(keys.map((k) => [subscriberKey(k.projectId, k.subscriberId), k])).values()) {
      try {
        for (const [key, rows] of await this.preferences.forSubscribers([k])) prefs.set(key, rows);
      } catch {
        unreadable.add(subscriberKey(k.projectId, k.subscriberId));
      }
    }
    return { prefs, unreadable };
  }

  private async prefetchSuppressions(
    jobs: readonly ScreenedJob[],
  ): Promise<{ found: Map<string, ActiveSuppression>; unknown: Set<string> }> {
    const keyOf = (j: ScreenedJob) => ({ projectId: j.projectId, channel: j.channel, address: j.recipient });
    try {
      return { found: await this.suppressions.activeFor(jobs.map(keyOf)), unknown: new Set() };
    } catch (err) {
      this.logger.warn(
        `suppression prefetch failed for ${jobs.length} job(s), checking each job: ${(err as Error).message}`,
      );
    }
    const found = new Map<string, ActiveSuppression>();
    const unknown = new Set<string>();
    const queue = [...jobs];
    const worker = async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        try {
          for (const [k, v] of await this.suppressions.activeFor([keyOf(job)])) found.set(k, v);
        } catch {
          unknown.add(job.id);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(FALLBACK_CONCURRENCY, jobs.length) }, worker));
    return { found, unknown };
  }
}
