import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { generateProjectKey, hashKey, keyHint } from './auth/api-keys.js';
import { InvalidatedCache } from '../common/cache/invalidated-cache.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { SignalsService } from '../database/signals/signals.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { ProjectAuditEvents } from './project-audit-events.js';
import type { CreateProjectDto, UpdateProjectDto } from './dto/project.dto.js';
import type { Actor } from '../domain/actor.js';
import type { ProjectRef, ProjectRow } from './project.types.js';
import { type Patch, ProjectsRepository } from './projects.repository.js';
import { checkSetting } from './setting-rules.js';
import { parsePreferenceTopics } from './preference-topics.js';

/** Every process drops what it caches of a project (its keys, its own provider connectors) on this signal (key = project id). */
export const PROJECTS_CHANGED = 'projects.changed';
/** Enough for every active project's two keys; a miss costs one query. */
const KEY_CACHE_ENTRIES = 10_000;

@Injectable()
export class ProjectsService implements OnModuleInit {
  /**
   * Key hash → project, so that a send does not pay a round trip for its project (issue 9).
   * Every change below drops the project's entries here and signals the other processes;
   * AUTH_KEY_CACHE_MS bounds the rest (see InvalidatedCache).
   */
  private readonly keys: InvalidatedCache<ProjectRef>;

  constructor(
    private readonly repository: ProjectsRepository,
    private readonly audit: ProjectAuditEvents,
    private readonly signals: SignalsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.keys = new InvalidatedCache(config.auth.keyCacheMs, KEY_CACHE_ENTRIES);
  }

  onModuleInit(): void {
    // A reconnected listener may have missed signals: forget everything.
    this.signals.subscribe(PROJECTS_CHANGED, { received: (id) => this.keys.drop(id), resync: () => this.keys.clear() });
  }

  /** The project a presented key belongs to (primary or not-yet-revoked secondary key). */
  async authenticate(key: string): Promise<ProjectRef | undefined> {
    // Cheap shape check first: anything that is not `sk_<id>_<hex>` cannot match a hash.
    if (!/^sk_[a-z0-9][a-z0-9_-]{0,62}_[0-9a-f]{32}$/.test(key)) return undefined;
    const project = await this.byKeyHash(hashKey(key));
    // The hint names the key that was presented (current or previous one).
    return project && { ...project, createdBy: keyHint(key) };
  }

  /**
   * The project whose primary or not-yet-revoked secondary key has this SHA-256 (what the
   * database stores), through the key cache: for a caller that must re-check a key long after
   * its request and keeps the hash rather than the secret (the inbox's project-key streams).
   */
  byKeyHash(hash: string): Promise<ProjectRef | undefined> {
    return this.keys.get(hash, async () => {
      const project = await this.repository.findByKeyHash(hash);
      return project && { value: project, tag: project.id };
    });
  }

  /**
   * After a change to a project's row (keys, settings, rate limit, deletion) has committed:
   * cached keys of the project are dropped here and, by signal, in every other process.
   */
  changed(id: string): void {
    this.keys.drop(id);
    this.signals.send(PROJECTS_CHANGED, id);
  }

  list(): Promise<ProjectRow[]> {
    return this.repository.list();
  }

  async get(id: string): Promise<ProjectRow> {
    const project = await this.repository.find(id);
    if (!project) throw ApiError.notFound('Project', id);
    return project;
  }

  /**
   * The project an operator's request body names (`project_id`): the route itself exists, so an
   * unknown project is the caller's 422 that says where to find the ids, not a 404.
   */
  getNamed(id: string): Promise<ProjectRow> {
    return this.get(id).catch(() => {
      throw ApiError.unprocessable(
        'unknown_project',
        `Project '${id}' does not exist; list projects with GET /v1/admin/projects.`,
      );
    });
  }

  async create(dto: CreateProjectDto, by: Actor): Promise<{ project: ProjectRow; apiKey: string }> {
    checkSettings(dto.settings);
    const apiKey = generateProjectKey(dto.id);
    const project = await this.repository.insert({
      id: dto.id,
      name: dto.name,
      channels: dto.channels ?? ['email', 'in_app'],
      rateLimitPerMin: dto.rate_limit_per_min ?? 600,
      settings: dto.settings ?? {},
      fromEmail: dto.from_email ?? null,
      fromName: dto.from_name ?? null,
      apiKeyHash: hashKey(apiKey),
      apiKeyHint: keyHint(apiKey),
    });
    if (!project) {
      throw ApiError.conflict(
        'project_exists',
        `Project '${dto.id}' already exists. Change it with PATCH /v1/admin/projects/${dto.id}, or get a new key with POST /v1/admin/projects/${dto.id}/rotate-key.`,
      );
    }
    await this.audit.changed({ ...by, projectId: project.id, action: 'project.created', resource: project.id });
    return { project, apiKey };
  }

  async update(id: string, dto: UpdateProjectDto, by: Actor): Promise<ProjectRow> {
    checkSettings(dto.settings);
    const field = <T>(present: boolean, value: T): Patch<T> => (present ? { set: true, value } : { set: false });
    const project = await this.repository.update(id, {
      name: field(dto.name !== undefined, dto.name as string),
      channels: field(dto.channels !== undefined, dto.channels as string[]),
      fromEmail: field(dto.from_email !== undefined, dto.from_email || null),
      fromName: field(dto.from_name !== undefined, dto.from_name || null),
      rateLimitPerMin: field(dto.rate_limit_per_min !== undefined, dto.rate_limit_per_min as number),
      ...this.legacySettings(dto),
    });
    if (!project) throw ApiError.notFound('Project', id);
    await this.changedBy(id, 'project.updated', by, { fields: Object.keys(dto) });
    return project;
  }

  /**
   * `settings` merged with notifyd 0.x's top-level `send_window` and `tracking` (checked by the
   * rules governance registers; null removes the key), and the keys to remove.
   */
  private legacySettings(dto: UpdateProjectDto): { settings: Record<string, unknown>; removeSettings: string[] } {
    const settings = { ...(dto.settings ?? {}) };
    const removeSettings: string[] = [];
    for (const key of ['send_window', 'tracking'] as const) {
      const value = dto[key];
      if (value === undefined) continue;
      if (dto.settings && key in dto.settings)
        throw ApiError.unprocessable(
          'validation_failed',
          `${key} is given twice (top level and in settings): send one.`,
        );
      if (value === null) {
        removeSettings.push(key);
        continue;
      }
      const checked = checkSetting(key, value);
      if ('error' in checked) throw ApiError.unprocessable('validation_failed', checked.error);
      settings[key] = checked.value;
    }
    return { settings, removeSettings };
  }

  async rotateKey(id: string, by: Actor): Promise<string> {
    const apiKey = generateProjectKey(id);
    const project = await this.repository.rotateKey(id, hashKey(apiKey), keyHint(apiKey));
    if (!project) throw ApiError.notFound('Project', id);
    await this.changedBy(id, 'project.key_rotated', by);
    return apiKey;
  }

  async revokeSecondary(id: string, by: Actor): Promise<void> {
    const project = await this.repository.revokeSecondary(id);
    if (!project) throw ApiError.notFound('Project', id);
    await this.changedBy(id, 'project.secondary_key_revoked', by);
  }

  async delete(id: string, by: Actor): Promise<void> {
    if (!(await this.repository.delete(id))) throw ApiError.notFound('Project', id);
    await this.changedBy(id, 'project.deleted', by);
  }

  /** After an operator's change to a project: drops what caches hold of it and writes the audit line. */
  private async changedBy(id: string, action: string, by: Actor, metadata?: Record<string, unknown>): Promise<void> {
    this.changed(id);
    await this.audit.changed({ ...by, projectId: id, action, resource: id, metadata });
  }

  /**
   * Each project's own sender identity, for a claimed batch: one query for all of them. It also
   * carries `settings.rendered_content` ("redact": the rendered content of its jobs is not kept).
   */
  async senders(
    ids: string[],
  ): Promise<Map<string, { fromEmail: string | null; fromName: string | null; renderedContent: string | null }>> {
    const rows = ids.length ? await this.repository.senders(ids) : [];
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** First start in embedded mode: make sure the `default` project exists with this key. */
  async ensureProject(id: string, name: string, apiKey: string): Promise<void> {
    await this.repository.ensure(id, name, ['email', 'in_app'], hashKey(apiKey), keyHint(apiKey));
    this.changed(id);
  }
}

/**
 * The settings notifyd itself reads and can check at write time. `rendered_content`: "keep"
 * (default) keeps what the worker rendered for each job (shown by GET /v1/jobs/:id); "redact"
 * keeps nothing and shows nothing (the log provider prints no content either).
 * `preference_topics`: the preference center's topics (preference-topics.ts).
 */
function checkSettings(settings: Record<string, unknown> | undefined): void {
  const value = settings?.rendered_content;
  if (value !== undefined && value !== null && value !== 'keep' && value !== 'redact') {
    throw ApiError.unprocessable(
      'validation_failed',
      'settings.rendered_content must be "keep" (the default: rendered subjects and bodies are kept with each job) or "redact" (nothing is kept).',
    );
  }
  const topics = parsePreferenceTopics(settings?.preference_topics);
  if ('error' in topics) throw ApiError.unprocessable('validation_failed', topics.error);
}
