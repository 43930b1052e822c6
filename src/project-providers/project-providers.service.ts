import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AuditService } from '../audit/audit.service.js';
import { ApiError } from '../common/errors/api-error.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { CHANNELS, type Channel } from '../domain/channels.js';
import type { Connector } from '../connectors/connector.js';
import { ConnectorRegistry } from '../connectors/connector-registry.js';
import { SignalsService } from '../database/signals/signals.service.js';
import type { Actor } from '../domain/actor.js';
import { PROJECTS_CHANGED, ProjectsService } from '../projects/projects.service.js';
import { maskSecret, splitSettings } from './project-settings.js';
import { type ProjectProviderRow, ProjectProvidersRepository } from './project-providers.repository.js';
import { resealInPages, type ResealResult } from './reseal-pages.js';
import { SecretBox } from './secret-box.js';

export interface ProjectProviderView {
  projectId: string;
  channel: string;
  provider: string;
  /** Plain settings as stored, secret ones masked. */
  settings: Record<string, string>;
  keyId: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Another owner of secrets sealed with NOTIFYD_SECRET_KEY, re-sealed by the same reseal (key rotation). */
export type Resealer = () => Promise<ResealResult>;

/**
 * Per-project providers: a project's own account with a provider for a channel, its secrets
 * sealed at rest (SecretBox, NOTIFYD_SECRET_KEY), never returned in plaintext. The worker asks
 * for the connectors of a batch's projects once per batch; built connectors are cached until
 * the row changes, and dropped once it is gone: when a read of the project no longer returns
 * it, or when the project is deleted (projects.changed), so the cache holds only rows that exist.
 */
@Injectable()
export class ProjectProvidersService implements OnModuleInit {
  private readonly logger = new Logger(ProjectProvidersService.name);
  private readonly box: SecretBox;
  private readonly built = new Map<string, { updatedAt: number; connector: Connector | Error }>();
  private readonly resealers: Resealer[] = [];

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly repository: ProjectProvidersRepository,
    private readonly registry: ConnectorRegistry,
    private readonly projects: ProjectsService,
    private readonly audit: AuditService,
    private readonly signals: SignalsService,
  ) {
    this.box = new SecretBox(config.secrets.current, config.secrets.previous);
  }

  onModuleInit(): void {
    // A deleted project's rows go with it (ON DELETE CASCADE) and it is never read again; any
    // change to a project drops its connectors (rebuilt on its next batch), a resync all of them.
    this.signals.subscribe(PROJECTS_CHANGED, { received: (id) => this.forget(id), resync: () => this.built.clear() });
  }

  async put(
    projectId: string,
    channel: string,
    provider: string,
    settings: Record<string, unknown>,
    by: Actor,
  ): Promise<ProjectProviderView> {
    this.requireSecretKey(
      'Set NOTIFYD_SECRET_KEY (32 random bytes: openssl rand -base64 32) to store provider credentials.',
    );
    await this.projects.get(projectId);
    const connector = this.configurable(channel, provider);
    const { plain, secret } = splitSettings(connector.projectSettings!, provider, settings);
    try {
      await connector.forProject!({ ...plain, ...secret }).validateConfiguration?.();
    } catch (err) {
      throw ApiError.unprocessable('validation_failed', `${provider} settings: ${(err as Error).message}`);
    }
    const row = await this.repository.upsert({
      projectId,
      channel,
      provider,
      settings: plain,
      secrets: this.box.seal(JSON.stringify(secret), context(projectId, channel)),
      keyId: this.box.currentKeyId!,
    });
    await this.audited('project_provider.set', projectId, channel, by, { provider, fields: Object.keys(settings) });
    return this.present(row);
  }

  async get(projectId: string, channel: string): Promise<ProjectProviderView> {
    await this.projects.get(projectId);
    const row = await this.repository.get(projectId, channel);
    if (!row) throw ApiError.notFound('Provider of project', `${projectId}/${channel}`);
    return this.present(row);
  }

  async list(projectId: string): Promise<ProjectProviderView[]> {
    await this.projects.get(projectId);
    return (await this.repository.list(projectId)).map((row) => this.present(row));
  }

  async delete(projectId: string, channel: string, by: Actor): Promise<void> {
    await this.projects.get(projectId);
    if (!(await this.repository.delete(projectId, channel)))
      throw ApiError.notFound('Provider of project', `${projectId}/${channel}`);
    await this.audited('project_provider.deleted', projectId, channel, by);
  }

  /** The audit line of a change to one project's provider of a channel. */
  private audited(action: string, projectId: string, channel: string, by: Actor, metadata?: Record<string, unknown>) {
    return this.audit.record({ ...by, projectId, action, resource: `${projectId}/${channel}`, metadata });
  }

  /** Which of these channels the project sends on through its own account (not the instance's). */
  async ownChannels(projectId: string, channels: readonly string[]): Promise<Set<string>> {
    return new Set(channels.length ? await this.repository.ownChannels(projectId, channels) : []);
  }

  /** Modules above this one (per-user Telegram bots) add their sealed rows to the key rotation. */
  addResealer(resealer: Resealer): void {
    this.resealers.push(resealer);
  }

  /** Key rotation: re-seals every row sealed with another key than NOTIFYD_SECRET_KEY_ID (and the resealers' rows). */
  async reseal(by: Actor): Promise<ResealResult> {
    this.requireSecretKey('Set NOTIFYD_SECRET_KEY first.');
    const keyId = this.box.currentKeyId!;
    const result = await resealInPages<ProjectProviderRow>({
      page: (last, size) => this.repository.sealedWithOtherKeys(keyId, last ?? { projectId: '', channel: '' }, size),
      reseal: (row) => {
        const secrets = this.box.seal(
          this.box.open(row.secrets, context(row.projectId, row.channel)),
          context(row.projectId, row.channel),
        );
        return this.repository.reseal(row, secrets, keyId);
      },
      name: (row) => context(row.projectId, row.channel),
    });
    for (const resealer of this.resealers) {
      const more = await resealer();
      result.resealed += more.resealed;
      result.unreadable.push(...more.unreadable);
    }
    await this.audit.record({
      ...by,
      action: 'project_provider.resealed',
      metadata: { resealed: result.resealed, unreadable: result.unreadable.length, key_id: keyId },
    });
    return result;
  }

  /**
   * The own connectors of these projects, keyed `project/channel` (one read per claimed batch).
   * A row whose secrets cannot be opened maps to the Error, for the worker to report on the job.
   */
  async connectorsFor(projectIds: readonly string[]): Promise<Map<string, Connector | Error>> {
    const result = new Map<string, Connector | Error>();
    if (projectIds.length === 0) return result;
    const rows = await this.repository.forProjects(projectIds);
    const present = new Set(rows.map((row) => context(row.projectId, row.channel)));
    // Rows deleted since they were built (by any process): their connectors go too.
    for (const projectId of projectIds) this.forget(projectId, present);
    for (const row of rows) {
      const key = context(row.projectId, row.channel);
      const cached = this.built.get(key);
      const updatedAt = new Date(row.updatedAt).getTime();
      if (cached?.updatedAt === updatedAt) {
        result.set(key, cached.connector);
        continue;
      }
      const connector = this.build(row);
      this.built.set(key, { updatedAt, connector });
      result.set(key, connector);
    }
    return result;
  }

  /** Drops the project's cached connectors, but those whose keys are in `keep`. */
  private forget(projectId: string, keep?: ReadonlySet<string>): void {
    for (const channel of CHANNELS) {
      const key = context(projectId, channel);
      if (!keep?.has(key)) this.built.delete(key);
    }
  }

  private build(row: ProjectProviderRow): Connector | Error {
    try {
      const base = this.registry.connector(row.channel as Channel, row.provider);
      if (!base?.forProject)
        return new Error(`no connector implements ${row.channel}/${row.provider} per project any more`);
      const secret = JSON.parse(this.box.open(row.secrets, context(row.projectId, row.channel))) as Record<
        string,
        string
      >;
      return base.forProject({ ...row.settings, ...secret });
    } catch (err) {
      this.logger.error(`project ${row.projectId} ${row.channel} provider unusable: ${(err as Error).message}`);
      return new Error(
        `the project's own ${row.provider} credentials cannot be read (${(err as Error).message}); set them again with PUT /v1/admin/projects/${row.projectId}/providers/${row.channel}`,
      );
    }
  }

  /** 422 without NOTIFYD_SECRET_KEY: credentials can be neither sealed nor re-sealed. */
  private requireSecretKey(message: string): void {
    if (!this.box.enabled) throw ApiError.unprocessable('secret_key_not_configured', message);
  }

  private configurable(channel: string, provider: string): Connector {
    if (!CHANNELS.includes(channel as Channel) || channel === 'in_app') {
      throw ApiError.unprocessable(
        'validation_failed',
        `channel must be one of ${CHANNELS.filter((c) => c !== 'in_app').join(', ')}.`,
      );
    }
    const connector = this.registry.connector(channel as Channel, provider);
    if (connector?.projectSettings && connector.forProject) return connector;
    const choices = this.registry.perProjectProviders(channel as Channel);
    throw ApiError.unprocessable(
      'validation_failed',
      `provider '${provider}' cannot be configured per project on ${channel}; use ${choices.length ? choices.join(', ') : 'none (no connector supports it yet)'}.`,
    );
  }

  private present(row: ProjectProviderRow): ProjectProviderView {
    let masked: Record<string, string>;
    try {
      masked = Object.fromEntries(
        Object.entries(
          JSON.parse(this.box.open(row.secrets, context(row.projectId, row.channel))) as Record<string, string>,
        ).map(([k, v]) => [k, maskSecret(v)]),
      );
    } catch {
      masked = { secrets: `(unreadable with the configured keys; sealed with '${row.keyId}')` };
    }
    return {
      projectId: row.projectId,
      channel: row.channel,
      provider: row.provider,
      settings: { ...row.settings, ...masked },
      keyId: row.keyId,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }
}

const context = (projectId: string, channel: string) => `${projectId}/${channel}`;
