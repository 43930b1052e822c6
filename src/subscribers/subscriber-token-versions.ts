import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { InvalidatedCache } from '../common/cache/invalidated-cache.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { SignalsService } from '../database/signals/signals.service.js';
import { PROJECTS_CHANGED } from '../projects/projects.service.js';
import { SubscribersRepository } from './subscribers.repository.js';

/** Every process forgets a subscriber's cached token version on this signal (key = `project/subscriber`). */
export const SUBSCRIBER_TOKENS_CHANGED = 'subscribers.tokens';
/** One entry per subscriber with an active inbox; a miss costs one primary-key probe. */
const CACHE_ENTRIES = 10_000;

/** Whose tokens may have ended: one subscriber, every subscriber of a project (no subscriberId), or anyone (neither: a resync). */
export interface TokensChanged {
  projectId?: string;
  subscriberId?: string;
}
export type TokensChangedListener = (changed: TokensChanged) => void;

/**
 * The version each subscriber's tokens must carry (issue 18: revocable subscriber tokens). Read
 * on every inbox request, so cached like project keys: a revocation or deletion drops the entry
 * here at once and, by signal, in every other process; AUTH_KEY_CACHE_MS bounds a lost signal.
 * Project changes (deletion) drop the project's entries too. Listeners (the open inbox streams)
 * hear of every drop, to re-check what they hold.
 */
@Injectable()
export class SubscriberTokenVersions implements OnModuleInit {
  private readonly versions: InvalidatedCache<string>;
  private readonly listeners = new Set<TokensChangedListener>();

  constructor(
    private readonly repository: SubscribersRepository,
    private readonly signals: SignalsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.versions = new InvalidatedCache(config.auth.keyCacheMs, CACHE_ENTRIES);
  }

  onModuleInit(): void {
    // A reconnected listener may have missed signals: forget everything (one resync is enough for both topics).
    this.signals.subscribe(SUBSCRIBER_TOKENS_CHANGED, {
      received: (key) => this.forget(key),
      resync: () => this.forgetAll(),
    });
    this.signals.subscribe(PROJECTS_CHANGED, {
      received: (projectId) => this.forget(projectId),
      resync: () => undefined,
    });
  }

  /** The version a subscriber's tokens must carry; undefined when the project has no such subscriber. */
  current(projectId: string, subscriberId: string): Promise<string | undefined> {
    return this.versions.get(`${projectId}/${subscriberId}`, async () => {
      const [row] = await this.repository.tokenVersions(projectId, [subscriberId]);
      return row && { value: row.version, tag: projectId };
    });
  }

  /** Current versions of several subscribers of a project, read now (one query): who is missing has no row. */
  async currentOf(projectId: string, subscriberIds: string[]): Promise<Map<string, string>> {
    const rows = subscriberIds.length ? await this.repository.tokenVersions(projectId, subscriberIds) : [];
    return new Map(rows.map((r) => [r.id, r.version]));
  }

  /** Ends every token a subscriber holds; false when the project has no such subscriber. */
  async revoke(projectId: string, subscriberId: string): Promise<boolean> {
    const revoked = await this.repository.revokeTokens(projectId, subscriberId);
    if (revoked) this.changed(projectId, subscriberId);
    return revoked;
  }

  /** After a committed change that ends a subscriber's tokens (revocation, deletion): here at once, elsewhere by signal. */
  changed(projectId: string, subscriberId: string): void {
    const key = `${projectId}/${subscriberId}`;
    this.forget(key);
    this.signals.send(SUBSCRIBER_TOKENS_CHANGED, key);
  }

  onChange(listener: TokensChangedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `project/subscriber` or a bare project id (project ids never contain `/`, subscriber ids may). */
  private forget(key: string): void {
    const at = key.indexOf('/');
    const projectId = at < 0 ? key : key.slice(0, at);
    this.versions.drop(projectId);
    this.tell(at < 0 ? { projectId } : { projectId, subscriberId: key.slice(at + 1) });
  }

  private forgetAll(): void {
    this.versions.clear();
    this.tell({});
  }

  private tell(changed: TokensChanged): void {
    for (const listener of this.listeners) listener(changed);
  }
}
