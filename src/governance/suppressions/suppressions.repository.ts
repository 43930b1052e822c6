import { Injectable } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { Db } from '../../database/db.js';
import * as sql from './sql/suppressions.sql.js';
import type { SuppressionKey, SuppressionRow, SuppressionScope, SuppressionReason } from './suppression.types.js';

export interface ActiveSuppression extends SuppressionKey {
  id: string;
  scope: SuppressionScope;
  reason: SuppressionReason;
}

/** A suppression to store: its row before the database gives it an id and a time (and no release). */
export type NewSuppression = Omit<SuppressionRow, 'id' | 'createdAt' | 'releasedAt' | 'releasedBy' | 'releaseReason'>;

export interface SuppressionFilter {
  includeReleased: boolean;
  channel?: string;
  address?: string;
  after?: { createdAt: string; id: string };
  limit: number;
}

/** All SQL of the suppression list. */
@Injectable()
export class SuppressionsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Creates the suppression unless one is active for the address; a scope `all` replaces an
   * active `marketing` one (released as superseded). Returns the active row either way.
   */
  insert(s: NewSuppression, outer?: QueryRunner): Promise<{ row: SuppressionRow; created: boolean }> {
    // `outer`: inside the caller's transaction (provider evidence commits event and suppression together).
    const inTransaction = <T>(fn: (runner: QueryRunner) => Promise<T>) => (outer ? fn(outer) : this.db.transaction(fn));
    return inTransaction(async (runner) => {
      if (s.scope === 'all')
        await this.db.exec(sql.SUPERSEDE_MARKETING, [s.projectId, s.channel, s.address, s.source], runner);
      const params = [
        s.projectId,
        s.channel,
        s.address,
        s.scope,
        s.reason,
        s.source,
        s.detail,
        s.evidence,
        s.sourceJobId,
        s.providerEventId,
      ];
      const inserted = await this.db.one<SuppressionRow>(sql.INSERT_SUPPRESSION, params, runner);
      if (inserted) return { row: inserted, created: true };
      const existing = await this.db.one<SuppressionRow>(sql.FIND_ACTIVE, [s.projectId, s.channel, s.address], runner);
      // Released between the conflict and this read: extremely unlikely; the caller may retry.
      if (!existing) throw new Error('suppression changed concurrently; retry');
      return { row: existing, created: false };
    });
  }

  find(projectId: string, id: string): Promise<SuppressionRow | undefined> {
    return this.db.one<SuppressionRow>(sql.FIND_SUPPRESSION, [id, projectId]);
  }

  /** projectId null: any project (operators). */
  release(
    projectId: string | null,
    id: string,
    by: string,
    reason: string | null,
  ): Promise<SuppressionRow | undefined> {
    return this.db.one<SuppressionRow>(sql.RELEASE_SUPPRESSION, [id, projectId, by, reason]);
  }

  list(projectId: string, f: SuppressionFilter): Promise<SuppressionRow[]> {
    return this.db.rows<SuppressionRow>(sql.LIST_SUPPRESSIONS, [
      projectId,
      f.includeReleased,
      f.channel ?? null,
      f.address ?? null,
      f.after?.createdAt ?? null,
      f.after?.id ?? null,
      f.limit,
    ]);
  }

  listActiveForOperators(projectId: string | null, limit: number): Promise<SuppressionRow[]> {
    return this.db.rows<SuppressionRow>(sql.ADMIN_LIST_ACTIVE, [projectId, limit]);
  }

  /** The projects among these with at least one active suppression. */
  async projectsWithActive(projectIds: readonly string[]): Promise<Set<string>> {
    return new Set((await this.db.rows<{ id: string }>(sql.PROJECTS_WITH_ACTIVE, [projectIds])).map((r) => r.id));
  }

  /** Keys of one project as parallel arrays (addresses normalised). */
  activeForProject(
    projectId: string,
    channels: readonly string[],
    addresses: readonly string[],
  ): Promise<ActiveSuppression[]> {
    return this.db.rows<ActiveSuppression>(sql.ACTIVE_FOR_PROJECT_KEYS, [projectId, channels, addresses]);
  }

  activeFor(keys: readonly SuppressionKey[]): Promise<ActiveSuppression[]> {
    const projectId = keys[0]?.projectId;
    if (keys.every((k) => k.projectId === projectId))
      return this.activeForProject(
        projectId,
        keys.map((k) => k.channel),
        keys.map((k) => k.address),
      );
    return this.db.rows<ActiveSuppression>(sql.ACTIVE_FOR_KEYS, [
      keys.map((k) => k.projectId),
      keys.map((k) => k.channel),
      keys.map((k) => k.address),
    ]);
  }

  /** Active suppressions of these (channel, normalised address) pairs in one project or all (null). */
  activeOfAddresses(
    projectId: string | null,
    channels: readonly string[],
    addresses: readonly string[],
    limit: number,
  ): Promise<SuppressionRow[]> {
    return this.db.rows<SuppressionRow>(sql.ACTIVE_OF_ADDRESSES, [projectId, channels, addresses, limit]);
  }
}
