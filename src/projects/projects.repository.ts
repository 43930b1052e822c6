import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.js';
import type { ProjectRow } from './project.types.js';
import * as sql from './projects.sql.js';

export interface NewProject {
  id: string;
  name: string;
  channels: string[];
  rateLimitPerMin: number;
  settings: Record<string, unknown>;
  fromEmail: string | null;
  fromName: string | null;
  apiKeyHash: string;
  apiKeyHint: string;
}

/** A field of a partial update: absent (keep), or present with a value (possibly null = clear). */
export type Patch<T> = { set: false } | { set: true; value: T };

export interface ProjectPatch {
  name: Patch<string>;
  channels: Patch<string[]>;
  fromEmail: Patch<string | null>;
  fromName: Patch<string | null>;
  rateLimitPerMin: Patch<number>;
  settings: Record<string, unknown>;
  /** Settings keys removed before `settings` is merged. */
  removeSettings?: string[];
}

@Injectable()
export class ProjectsRepository {
  constructor(private readonly db: Db) {}

  findByKeyHash(hash: string): Promise<ProjectRow | undefined> {
    return this.db.one<ProjectRow>(sql.FIND_PROJECT_BY_KEY_HASH, [hash]);
  }

  find(id: string): Promise<ProjectRow | undefined> {
    return this.db.one<ProjectRow>(sql.FIND_PROJECT, [id]);
  }

  list(): Promise<ProjectRow[]> {
    return this.db.rows<ProjectRow>(sql.LIST_PROJECTS);
  }

  insert(p: NewProject): Promise<ProjectRow | undefined> {
    return this.db.one<ProjectRow>(sql.INSERT_PROJECT, [
      p.id,
      p.name,
      p.channels,
      p.rateLimitPerMin,
      p.settings,
      p.fromEmail,
      p.fromName,
      p.apiKeyHash,
      p.apiKeyHint,
    ]);
  }

  update(id: string, patch: ProjectPatch): Promise<ProjectRow | undefined> {
    const arg = <T>(p: Patch<T>): [boolean, T | null] => (p.set ? [true, p.value] : [false, null]);
    return this.db.one<ProjectRow>(sql.UPDATE_PROJECT, [
      id,
      ...arg(patch.name),
      ...arg(patch.channels),
      ...arg(patch.fromEmail),
      ...arg(patch.fromName),
      ...arg(patch.rateLimitPerMin),
      patch.settings,
      patch.removeSettings ?? [],
    ]);
  }

  rotateKey(id: string, hash: string, hint: string): Promise<ProjectRow | undefined> {
    return this.db.one<ProjectRow>(sql.ROTATE_PROJECT_KEY, [id, hash, hint]);
  }

  revokeSecondary(id: string): Promise<ProjectRow | undefined> {
    return this.db.one<ProjectRow>(sql.REVOKE_SECONDARY_KEY, [id]);
  }

  /** Deletes the project and its jobs in one transaction; false when it did not exist. */
  delete(id: string): Promise<boolean> {
    return this.db.transaction(async (runner) => {
      await this.db.exec(sql.DELETE_PROJECT_JOBS, [id], runner);
      return (await this.db.exec(sql.DELETE_PROJECT, [id], runner)) > 0;
    });
  }

  senders(
    ids: string[],
  ): Promise<{ id: string; fromEmail: string | null; fromName: string | null; renderedContent: string | null }[]> {
    return this.db.rows(sql.FIND_SENDERS, [ids]);
  }

  async ensure(id: string, name: string, channels: string[], hash: string, hint: string): Promise<void> {
    await this.db.exec(sql.ENSURE_PROJECT, [id, name, channels, hash, hint]);
  }
}
