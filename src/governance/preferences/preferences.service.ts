import { Injectable, Logger } from '@nestjs/common';
import { AuditService } from '../../audit/audit.service.js';
import { Db } from '../../database/db.js';
import { ApiError } from '../../common/errors/api-error.js';
import { EvidenceEvents } from '../../job-events/evidence-events.js';
import { SubscribersService } from '../../subscribers/subscribers.service.js';
import type { PreferenceDto, PreferenceInputDto } from './dto/preference.dto.js';
import type { PreferenceRow } from './preference.types.js';
import { type PreferenceWrite, PreferencesRepository } from './preferences.repository.js';
import { worthLookingUp } from '../worth-looking-up.js';

/** Map key of one subscriber's preferences. */
export const subscriberKey = (projectId: string, subscriberId: string) => `${projectId}\n${subscriberId}`;

/**
 * Subscribers' own choices per channel × scope (topic, workflow/template, everything): read,
 * write (announced as `subscriber.preference_changed`), and the lookups enqueue and the worker
 * use. The decision itself is optOutReason() in preference-rules.ts.
 */
@Injectable()
export class PreferencesService {
  private readonly logger = new Logger(PreferencesService.name);

  constructor(
    private readonly repository: PreferencesRepository,
    private readonly subscribers: SubscribersService,
    private readonly events: EvidenceEvents,
    private readonly audit: AuditService,
    private readonly db: Db,
  ) {}

  async get(projectId: string, subscriberId: string): Promise<PreferenceRow[]> {
    await this.subscribers.get(projectId, subscriberId);
    return this.repository.forSubscriber(projectId, subscriberId);
  }

  /** Upserts the rows (the last of duplicates wins); 404 for an unknown subscriber. */
  async put(projectId: string, subscriberId: string, input: readonly PreferenceInputDto[]): Promise<number> {
    await this.subscribers.get(projectId, subscriberId);
    const rows = new Map<string, PreferenceWrite>();
    for (const p of input) {
      if (p.topic !== undefined && p.workflow_id !== undefined && p.workflow_id !== '*') {
        throw ApiError.unprocessable(
          'validation_failed',
          'A preference is scoped by topic or by workflow_id, not both: split it into two rows.',
        );
      }
      const write: PreferenceWrite =
        p.topic !== undefined
          ? { channel: p.channel, scopeKind: 'topic', scope: p.topic, enabled: p.enabled }
          : p.workflow_id !== undefined && p.workflow_id !== '*'
            ? { channel: p.channel, scopeKind: 'workflow', scope: p.workflow_id, enabled: p.enabled }
            : { channel: p.channel, scopeKind: 'all', scope: '*', enabled: p.enabled };
      rows.set(`${write.channel}\n${write.scopeKind}\n${write.scope}`, write);
    }
    const written = await this.repository.upsert(projectId, subscriberId, [...rows.values()]);
    await this.announce(projectId, subscriberId, [...rows.values()]);
    return written;
  }

  /**
   * A subscriber's own opt-out of one topic on one channel, from an unsubscribe link: the
   * (channel, topic) row is the most specific scope, so it decides over any broader choice.
   * Audited and announced per subscriber whose preference changed; returns those subscribers
   * (none when every one was already opted out: the click changes nothing).
   */
  async optOutOfTopic(
    projectId: string,
    subscriberIds: readonly string[],
    channel: string,
    topic: string,
    by: { actor: string; ip: string | null },
  ): Promise<string[]> {
    if (subscriberIds.length === 0) return [];
    // The change and its audit lines commit together.
    const changed = await this.db.transaction(async (runner) => {
      const ids = await this.repository.optOutOfTopic(projectId, subscriberIds, channel, topic, runner);
      for (const subscriberId of ids) {
        await this.audit.record(
          {
            projectId,
            actor: by.actor,
            action: 'preference.opted_out',
            resource: subscriberId,
            metadata: { channel, topic },
            ip: by.ip,
          },
          runner,
        );
      }
      return ids;
    });
    for (const subscriberId of changed)
      await this.announce(projectId, subscriberId, [{ channel, scopeKind: 'topic', scope: topic, enabled: false }]);
    return changed;
  }

  /**
   * Preferences of distinct subscribers of one project (a /v1/batch call) in one query, grouped
   * by subscriber id; no key string per subscriber. A project where nobody has stored a
   * preference is answered by the probe alone (see worthLookingUp). Throws if the database does.
   */
  async forProjectSubscribers(
    projectId: string,
    subscriberIds: readonly string[],
  ): Promise<Map<string, PreferenceRow[]>> {
    const grouped = new Map<string, PreferenceRow[]>();
    if (subscriberIds.length === 0) return grouped;
    const worth = await worthLookingUp([projectId], subscriberIds.length, (ids) =>
      this.repository.projectsWithPreferences(ids),
    );
    if (!worth(projectId)) return grouped;
    for (const row of await this.repository.forProjectSubscribers(projectId, subscriberIds)) {
      const rows = grouped.get(row.subscriberId);
      if (rows) rows.push(row);
      else grouped.set(row.subscriberId, [row]);
    }
    return grouped;
  }

  /**
   * Preferences of many subscribers, grouped by subscriberKey: first which of their projects
   * hold any preference (one small query), then the subscribers of those projects only, in one
   * query (see worthLookingUp). Throws if the database does.
   */
  async forSubscribers(
    keys: readonly { projectId: string; subscriberId: string }[],
  ): Promise<Map<string, PreferenceRow[]>> {
    const grouped = new Map<string, PreferenceRow[]>();
    if (keys.length === 0) return grouped;
    const worth = await worthLookingUp(
      keys.map((k) => k.projectId),
      keys.length,
      (ids) => this.repository.projectsWithPreferences(ids),
    );
    const unique = new Map(
      keys.filter((k) => worth(k.projectId)).map((k) => [subscriberKey(k.projectId, k.subscriberId), k]),
    );
    if (unique.size === 0) return grouped;
    for (const row of await this.repository.forSubscribers([...unique.values()])) {
      const key = subscriberKey(row.projectId, row.subscriberId);
      if (!grouped.has(key)) grouped.set(key, []);
      grouped.get(key)!.push(row);
    }
    return grouped;
  }

  /**
   * `subscriber.preference_changed`, published for outbound webhooks (EvidenceEvents: webhooks
   * sit above governance); a failed publish never fails the write that already happened.
   */
  private async announce(projectId: string, subscriberId: string, rows: PreferenceWrite[]): Promise<void> {
    try {
      await this.events.publishProjectEvent(projectId, 'subscriber.preference_changed', {
        subscriber_id: subscriberId,
        preferences: rows.map((r) => ({
          channel: r.channel,
          topic: r.scopeKind === 'topic' ? r.scope : null,
          workflow_id: r.scope,
          enabled: r.enabled,
        })),
      });
    } catch (err) {
      this.logger.warn(`subscriber.preference_changed not emitted: ${(err as Error).message}`);
    }
  }
}

export function presentPreference(p: PreferenceRow): PreferenceDto {
  return {
    channel: p.channel,
    topic: p.scopeKind === 'topic' ? p.scope : null,
    workflow_id: p.scope,
    scope_kind: p.scopeKind,
    enabled: p.enabled,
    updated_at: p.updatedAt.toISOString(),
  };
}
