import { Inject, Injectable } from '@nestjs/common';
import { AuditService } from '../../audit/audit.service.js';
import { ApiError } from '../../common/errors/api-error.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { parsePreferenceTopics } from '../../projects/preference-topics.js';
import type { ProjectRef } from '../../projects/project.types.js';
import { ProjectsService } from '../../projects/projects.service.js';
import type { SubscriberRow } from '../../subscribers/subscriber.types.js';
import { SubscribersService } from '../../subscribers/subscribers.service.js';
import { type LinkSigningKeys, linkSigningKeys } from '../link-keys.js';
import { PreferencesRepository } from '../preferences/preferences.repository.js';
import { PreferencesService } from '../preferences/preferences.service.js';
import {
  buildGrid,
  changesFor,
  gridChannels,
  gridTopics,
  type PreferenceGrid,
  type WantedCell,
} from './preference-grid.js';
import { type PreferenceClaim, verifyPreferenceToken } from './preference-token.js';
import { preferencesPath, preferencesUrl, registerPreferencesSigner } from './preferences-url.js';

/** A subscriber's page: who, in which language, and the grid. */
export interface PreferenceView {
  project: ProjectRef;
  subscriber: SubscriberRow;
  grid: PreferenceGrid;
}

/**
 * The preference center: a subscriber's channels × topics as the preference rule reads them, and
 * their changes, for the signed page (`/p/<token>`) and the subscriber-token API alike. Writes go
 * through PreferencesService.put (the same rows as the project-key routes, announced as
 * `subscriber.preference_changed`) and are audited. Links are signed like unsubscribe links
 * (link-keys.ts, its own derived secret), and this service registers the worker's signer.
 */
@Injectable()
export class PreferenceCenterService {
  private readonly keys: LinkSigningKeys;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly projects: ProjectsService,
    private readonly subscribers: SubscribersService,
    private readonly preferences: PreferencesService,
    private readonly repository: PreferencesRepository,
    private readonly audit: AuditService,
  ) {
    // Throws without JWT_SECRET or UNSUBSCRIBE_SECRET, as the unsubscribe links do.
    this.keys = linkSigningKeys(config, 'preferences');
    registerPreferencesSigner({ publicUrl: config.server.publicUrl, key: this.keys.current });
  }

  verify(token: string): PreferenceClaim | undefined {
    return verifyPreferenceToken(token, this.keys.accepted);
  }

  /** The page of a link's subscriber; undefined when the project or the subscriber is gone. */
  async viewOfClaim(claim: PreferenceClaim): Promise<PreferenceView | undefined> {
    const project = await this.projects.get(claim.projectId).catch(() => undefined);
    if (!project) return undefined;
    return this.view(project, claim.subscriberId).catch((err: unknown) => {
      if (err instanceof ApiError && err.getStatus() === 404) return undefined;
      throw err;
    });
  }

  /** 404 for a subscriber the project does not have. */
  async view(project: ProjectRef, subscriberId: string): Promise<PreferenceView> {
    const [subscriber, rows] = await Promise.all([
      this.subscribers.get(project.id, subscriberId),
      this.repository.forSubscriber(project.id, subscriberId),
    ]);
    const catalog = parsePreferenceTopics(project.settings?.preference_topics);
    // A catalog stored before it was checked at write time is read as none rather than failing the page.
    const topics = gridTopics('topics' in catalog ? catalog.topics : [], rows);
    return { project, subscriber, grid: buildGrid(gridChannels(project.channels ?? [], subscriber), topics, rows) };
  }

  /**
   * Makes the wanted cells read as wanted (only those that differ are written) and returns the
   * new view. 422 naming the field for a cell the grid lacks or a transactional one.
   */
  async change(
    view: PreferenceView,
    wanted: readonly WantedCell[],
    by: { actor: string; ip: string | null },
    field?: string,
  ): Promise<PreferenceView> {
    const changes = changesFor(view.grid, wanted, field);
    if ('error' in changes) throw ApiError.unprocessable('validation_failed', changes.error);
    if (changes.rows.length === 0) return view;
    const { project, subscriber } = view;
    await this.preferences.put(project.id, subscriber.id, changes.rows);
    await this.audit.record({
      ...by,
      projectId: project.id,
      action: 'preference.updated',
      resource: subscriber.id,
      metadata: { changes: changes.rows.map((r) => ({ channel: r.channel, topic: r.topic, enabled: r.enabled })) },
    });
    return this.view(project, subscriber.id);
  }

  /** A fresh link to a subscriber's page: under PUBLIC_URL when set, else the path (relative to this API). */
  pageUrl(projectId: string, subscriberId: string): string {
    const subscriber = { projectId, subscriberId };
    return preferencesUrl(subscriber) ?? preferencesPath(subscriber)!;
  }
}
