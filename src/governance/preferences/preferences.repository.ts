import { Injectable } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { Db } from '../../database/db.js';
import type { PreferenceRow, PreferenceScopeKind } from './preference.types.js';
import * as sql from './sql/preferences.sql.js';
import { columnsOf } from '../../database/columns.js';

export interface PreferenceWrite {
  channel: string;
  scopeKind: PreferenceScopeKind;
  scope: string;
  enabled: boolean;
}

/** All SQL of subscriber preferences. */
@Injectable()
export class PreferencesRepository {
  constructor(private readonly db: Db) {}

  forSubscriber(projectId: string, subscriberId: string): Promise<PreferenceRow[]> {
    return this.db.rows<PreferenceRow>(sql.LIST_FOR_SUBSCRIBER, [projectId, subscriberId]);
  }

  /** The projects among these holding at least one stored preference. */
  async projectsWithPreferences(projectIds: readonly string[]): Promise<Set<string>> {
    return new Set((await this.db.rows<{ id: string }>(sql.PROJECTS_WITH_PREFERENCES, [projectIds])).map((r) => r.id));
  }

  /** Keys must be distinct (the service dedupes them): the one-project statement returns each row once, the join once per key. */
  forSubscribers(keys: readonly { projectId: string; subscriberId: string }[]): Promise<PreferenceRow[]> {
    const projectId = keys[0]?.projectId;
    if (keys.every((k) => k.projectId === projectId))
      return this.forProjectSubscribers(
        projectId,
        keys.map((k) => k.subscriberId),
      );
    return this.db.rows<PreferenceRow>(sql.LIST_FOR_SUBSCRIBERS, [
      keys.map((k) => k.projectId),
      keys.map((k) => k.subscriberId),
    ]);
  }

  forProjectSubscribers(projectId: string, subscriberIds: readonly string[]): Promise<PreferenceRow[]> {
    return this.db.rows<PreferenceRow>(sql.LIST_FOR_PROJECT_SUBSCRIBERS, [projectId, subscriberIds]);
  }

  upsert(projectId: string, subscriberId: string, rows: readonly PreferenceWrite[]): Promise<number> {
    return this.db.exec(sql.UPSERT_PREFERENCES, [
      projectId,
      subscriberId,
      ...columnsOf(rows, 'channel', 'scopeKind', 'scope', 'enabled'),
    ]);
  }

  /** The subscribers whose preference changed (see OPT_OUT_OF_TOPIC). */
  async optOutOfTopic(
    projectId: string,
    subscriberIds: readonly string[],
    channel: string,
    topic: string,
    runner?: QueryRunner,
  ): Promise<string[]> {
    const rows = await this.db.rows<{ subscriberId: string }>(
      sql.OPT_OUT_OF_TOPIC,
      [projectId, subscriberIds, channel, topic],
      runner,
    );
    return rows.map((r) => r.subscriberId);
  }

  clear(projectId: string, subscriberId: string): Promise<number> {
    return this.db.exec(sql.DELETE_FOR_SUBSCRIBER, [projectId, subscriberId]);
  }
}
