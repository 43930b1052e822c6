import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.js';
import * as sql from './sql/project-providers.sql.js';

export interface ProjectProviderRow {
  projectId: string;
  channel: string;
  provider: string;
  settings: Record<string, string>;
  secrets: string;
  keyId: string;
  createdAt: Date;
  updatedAt: Date;
}

/** All SQL of per-project providers. */
@Injectable()
export class ProjectProvidersRepository {
  constructor(private readonly db: Db) {}

  async upsert(
    row: Pick<ProjectProviderRow, 'projectId' | 'channel' | 'provider' | 'settings' | 'secrets' | 'keyId'>,
  ): Promise<ProjectProviderRow> {
    return (await this.db.one<ProjectProviderRow>(sql.UPSERT_PROJECT_PROVIDER, [
      row.projectId,
      row.channel,
      row.provider,
      JSON.stringify(row.settings),
      row.secrets,
      row.keyId,
    ]))!;
  }

  get(projectId: string, channel: string): Promise<ProjectProviderRow | undefined> {
    return this.db.one<ProjectProviderRow>(sql.GET_PROJECT_PROVIDER, [projectId, channel]);
  }

  list(projectId: string): Promise<ProjectProviderRow[]> {
    return this.db.rows<ProjectProviderRow>(sql.LIST_PROJECT_PROVIDERS, [projectId]);
  }

  async ownChannels(projectId: string, channels: readonly string[]): Promise<string[]> {
    return (await this.db.rows<{ channel: string }>(sql.OWN_CHANNELS, [projectId, channels])).map((r) => r.channel);
  }

  forProjects(projectIds: readonly string[]): Promise<ProjectProviderRow[]> {
    return this.db.rows<ProjectProviderRow>(sql.PROJECT_PROVIDERS_FOR, [projectIds]);
  }

  async delete(projectId: string, channel: string): Promise<boolean> {
    return (await this.db.rows(sql.DELETE_PROJECT_PROVIDER, [projectId, channel])).length > 0;
  }

  /** The next page of rows sealed with another key, after `after` (project id, channel order). */
  sealedWithOtherKeys(
    keyId: string,
    after: { projectId: string; channel: string },
    limit: number,
  ): Promise<ProjectProviderRow[]> {
    return this.db.rows<ProjectProviderRow>(sql.SEALED_WITH_OTHER_KEYS, [keyId, after.projectId, after.channel, limit]);
  }

  async reseal(row: ProjectProviderRow, secrets: string, keyId: string): Promise<boolean> {
    return (await this.db.exec(sql.RESEAL, [row.projectId, row.channel, secrets, keyId, row.secrets])) > 0;
  }
}
