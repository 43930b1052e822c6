import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { PeriodicTasks } from '../periodic/periodic-tasks.service.js';
import { InboxRepository } from './inbox.repository.js';
import { InboxHub } from './stream/inbox-hub.js';

const SNOOZE_EVERY_MS = 10_000;
const PURGE_EVERY_MS = 600_000;

/**
 * Periodic inbox work, each task on one replica per tick (PeriodicTasks): snoozes that ended
 * become `message.updated` events (so open streams show the message again and recount), and
 * expired tickets and events past INBOX_EVENT_RETENTION_HOURS are deleted. Runs in every role:
 * the inbox streams live in API processes.
 */
@Injectable()
export class InboxMaintenance implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: InboxRepository,
    private readonly hub: InboxHub,
    private readonly periodic: PeriodicTasks,
  ) {}

  onApplicationBootstrap(): void {
    this.periodic.every('inbox-snoozes', SNOOZE_EVERY_MS, () => this.wakeSnoozed());
    this.periodic.every('inbox-purge', PURGE_EVERY_MS, () => this.purge());
  }

  /**
   * Ends the snoozes that are over and tells every replica's streams of those inboxes.
   * Returns how many messages came back. Safe to overlap (the update skips locked rows).
   */
  async wakeSnoozed(): Promise<number> {
    const woken = await this.repository.wakeSnoozed(1_000);
    for (const s of woken) this.hub.changed(s.projectId, s.subscriberId);
    return woken.length;
  }

  purge(): Promise<void> {
    return this.repository.purge(this.config.inbox.eventRetentionHours);
  }
}
