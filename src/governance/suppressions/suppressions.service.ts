import { Injectable, Logger } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { AuditService } from '../../audit/audit.service.js';
import { ApiError } from '../../common/errors/api-error.js';
import type { Channel } from '../../domain/channels.js';
import { lookupAddress, normaliseAddress } from './suppression-address.js';
import type { SuppressInput, SuppressionKey, SuppressionRow } from './suppression.types.js';
import { type ActiveSuppression, type SuppressionFilter, SuppressionsRepository } from './suppressions.repository.js';
import { worthLookingUp } from '../worth-looking-up.js';
import { isUuid } from '../../domain/ids.js';

/** Map key of one (project, channel, normalised address). */
export const suppressionKey = (k: SuppressionKey) => `${k.projectId}\n${k.channel}\n${k.address}`;

/** Does an active suppression stop this message? `marketing` scope stops marketing messages only. */
export function blocks(s: Pick<ActiveSuppression, 'scope'>, marketing: boolean): boolean {
  return s.scope === 'all' || marketing;
}

/**
 * Told of every suppression created (outbound webhooks emit `suppression.created`). With a
 * runner the creation is inside the caller's transaction: the listener works in it too, so the
 * event commits with the suppression, and its failure rolls both back.
 */
export type SuppressionCreatedListener = (row: SuppressionRow, runner?: QueryRunner) => Promise<void>;

/**
 * The do-not-contact list of every channel: create (API, operators, worker evidence, provider
 * webhooks, unsubscribe), soft release, history, and the lookups enqueue and the worker use.
 * Creations and releases are audited (ids and reasons only, never the address).
 *
 *   await suppressions.suppress({ projectId, channel: 'email', address, scope: 'all',
 *     reason: 'bounce', source: 'resend-webhook', evidence: { bounce_type: 'Permanent' },
 *     sourceJobId, providerEventId });
 */
@Injectable()
export class SuppressionsService {
  private readonly logger = new Logger(SuppressionsService.name);
  private readonly createdListeners: SuppressionCreatedListener[] = [];

  constructor(
    private readonly repository: SuppressionsRepository,
    private readonly audit: AuditService,
  ) {}

  /**
   * Adds the address to the list (idempotent: an active suppression is returned unchanged,
   * except that scope `all` replaces an active `marketing` one). Throws a 422 ApiError naming
   * the address when it does not parse for its channel.
   */
  async suppress(
    input: SuppressInput,
    runner?: QueryRunner,
  ): Promise<{ suppression: SuppressionRow; created: boolean }> {
    const check = normaliseAddress(input.channel, input.address);
    if (!check.ok)
      throw ApiError.unprocessable(
        'validation_failed',
        `${input.channel === 'email' ? 'email' : 'address'} ${check.message}`,
      );
    const { row, created } = await this.repository.insert(
      {
        projectId: input.projectId,
        channel: input.channel,
        address: check.address,
        scope: input.scope,
        reason: input.reason,
        source: input.source,
        detail: input.detail ?? null,
        evidence: input.evidence ?? {},
        sourceJobId: input.sourceJobId ?? null,
        providerEventId: input.providerEventId ?? null,
      },
      runner,
    );
    if (created) {
      await this.audit.record(
        {
          projectId: input.projectId,
          actor: input.source,
          action: 'suppression.created',
          resource: row.id,
          metadata: {
            channel: row.channel,
            scope: row.scope,
            reason: row.reason,
            ...(row.sourceJobId ? { job_id: row.sourceJobId } : {}),
          },
          ip: input.ip ?? null,
        },
        runner,
      );
      await this.tellCreated(row, runner);
    }
    return { suppression: row, created };
  }

  onCreated(listener: SuppressionCreatedListener): void {
    this.createdListeners.push(listener);
  }

  /** Outside a transaction the suppression stands whatever a listener does: its failure is logged. */
  private async tellCreated(row: SuppressionRow, runner?: QueryRunner): Promise<void> {
    for (const listener of this.createdListeners) {
      if (runner) {
        await listener(row, runner);
        continue;
      }
      try {
        await listener(row);
      } catch (err) {
        this.logger.warn(`a suppression.created listener failed for suppression ${row.id}: ${(err as Error).message}`);
      }
    }
  }

  /**
   * Soft release: the row stays as history. 404 when missing, another project's, or already
   * released. projectId null: any project (operators).
   */
  async release(
    projectId: string | null,
    id: string,
    by: { actor: string; ip?: string | null },
    reason: string | null = null,
  ): Promise<SuppressionRow> {
    const row = isUuid(id) ? await this.repository.release(projectId, id, by.actor, reason) : undefined;
    if (!row) throw ApiError.notFound('Active suppression', id);
    await this.audit.record({
      projectId: row.projectId,
      actor: by.actor,
      action: 'suppression.released',
      resource: row.id,
      metadata: { channel: row.channel, scope: row.scope, reason: row.reason },
      ip: by.ip ?? null,
    });
    return row;
  }

  async get(projectId: string, id: string): Promise<SuppressionRow> {
    const row = isUuid(id) ? await this.repository.find(projectId, id) : undefined;
    if (!row) throw ApiError.notFound('Suppression', id);
    return row;
  }

  /** Newest first; `address` is normalised for its channel (email when no channel is given). */
  list(
    projectId: string,
    filter: Omit<SuppressionFilter, 'address'> & { address?: string },
  ): Promise<SuppressionRow[]> {
    const address =
      filter.address === undefined
        ? undefined
        : lookupAddress((filter.channel as Channel | undefined) ?? 'email', filter.address);
    return this.repository.list(projectId, { ...filter, address });
  }

  /** Operators' listing: active suppressions of one project or all, newest first. */
  listActiveForOperators(projectId: string | null, limit: number): Promise<SuppressionRow[]> {
    return this.repository.listActiveForOperators(projectId, limit);
  }

  /**
   * The active suppressions, with their evidence, of some addresses (each normalised for its
   * channel) in one project or every project (null): what the recipient trace shows.
   */
  activeOfAddresses(
    projectId: string | null,
    keys: readonly { channel: Channel; address: string }[],
    limit = 50,
  ): Promise<SuppressionRow[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return this.repository.activeOfAddresses(
      projectId,
      keys.map((k) => k.channel),
      keys.map((k) => lookupAddress(k.channel, k.address)),
      limit,
    );
  }

  /**
   * The active suppressions among many recipients, keyed by suppressionKey of the normalised
   * address: first which of their projects have any active suppression (one small query), then
   * the keys of those projects only, in one query (see worthLookingUp). Throws if the database
   * does: callers must not treat a failure as "not suppressed".
   */
  async activeFor(keys: readonly SuppressionKey[]): Promise<Map<string, ActiveSuppression>> {
    if (keys.length === 0) return new Map();
    const worth = await worthLookingUp(
      keys.map((k) => k.projectId),
      keys.length,
      (ids) => this.repository.projectsWithActive(ids),
    );
    const unique = new Map<string, SuppressionKey>();
    for (const k of keys) {
      if (!worth(k.projectId)) continue;
      const n = { projectId: k.projectId, channel: k.channel, address: lookupAddress(k.channel, k.address) };
      unique.set(suppressionKey(n), n);
    }
    if (unique.size === 0) return new Map();
    const rows = await this.repository.activeFor([...unique.values()]);
    return new Map(rows.map((r) => [suppressionKey(r), r]));
  }

  /**
   * The same for recipients of one project (a /v1/batch call's rows), normalised here and sent
   * as two parallel arrays, not deduplicated (a repeated address finds its row twice, which the
   * map absorbs). No key object or key string per recipient: a 5 000-recipient call made 2.5 MB
   * of garbage here before. A project with no active suppression is answered by the probe
   * alone (see worthLookingUp).
   */
  async activeForProject(
    projectId: string,
    recipients: readonly { channel: Channel; recipient: string }[],
  ): Promise<Map<string, ActiveSuppression>> {
    if (recipients.length === 0) return new Map();
    const worth = await worthLookingUp([projectId], recipients.length, (ids) =>
      this.repository.projectsWithActive(ids),
    );
    if (!worth(projectId)) return new Map();
    const rows = await this.repository.activeForProject(
      projectId,
      recipients.map((r) => r.channel),
      recipients.map((r) => lookupAddress(r.channel, r.recipient)),
    );
    return new Map(rows.map((r) => [suppressionKey(r), r]));
  }

  /**
   * The active suppression of one recipient, looked up in a map from activeFor or
   * activeForProject. An empty map (no project of the batch has a suppression) answers without
   * normalising the address: the worker asks once per job.
   */
  static match(found: Map<string, ActiveSuppression>, k: SuppressionKey): ActiveSuppression | undefined {
    if (found.size === 0) return undefined;
    return found.get(
      suppressionKey({ projectId: k.projectId, channel: k.channel, address: lookupAddress(k.channel, k.address) }),
    );
  }
}
