import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { InboxRepository } from './inbox.repository.js';
import { InboxHub } from './stream/inbox-hub.js';

const LOCK = 0x6e6f7452;
const SNOOZE_EVERY_MS = 10_000;
const PURGE_EVERY_MS = 600_000;

/**
 * Periodic inbox work on one replica at a time: snoozes that ended become `message.updated`
 * events (so open streams show the message again and recount), and expired tickets and events
 * past INBOX_EVENT_RETENTION_HOURS are deleted.
 */
@Injectable()
export class InboxMaintenance implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('InboxMaintenance');
  private timer: NodeJS.Timeout | undefined;
  private lastPurge = 0;
  private running = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: InboxRepository,
    private readonly hub: InboxHub,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), SNOOZE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async tick(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    try {
      const woken =
        (await this.repository.asLeader(LOCK, async () => {
          const changed = await this.repository.wakeSnoozed(1_000);
          if (Date.now() - this.lastPurge >= PURGE_EVERY_MS) {
            this.lastPurge = Date.now();
            await this.repository.purge(this.config.inbox.eventRetentionHours);
          }
          return changed;
        })) ?? [];
      for (const s of woken) this.hub.changed(s.projectId, s.subscriberId);
      return woken.length;
    } catch (err) {
      this.logger.warn(`inbox maintenance failed: ${(err as Error).message}`);
      return 0;
    } finally {
      this.running = false;
    }
  }
}
