import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { SignalsService } from '../../database/signals/signals.service.js';
import { DeliveryEvents } from '../../jobs/worker/delivery-events.js';
import type { Outcomes } from '../../jobs/worker/outcomes.js';
import { InboxRepository } from '../inbox.repository.js';
import { parseStreamKey, SSE_HEARTBEAT, type StreamConnection, streamKey } from './sse-frame.js';
import { countsFrame, eventFrame } from './stream-format.js';

/** The signal topic of inbox changes; the key is `project/subscriber` (or `project/*`). */
export const INBOX_TOPIC = 'inbox';
/** Events read per query while catching a stream up. */
const PAGE = 500;
/** Above this many subscribers of one project in one finalised batch, one project-wide signal. */
const FANOUT_PER_PROJECT = 200;

/**
 * Every open inbox stream of this process, fanned out from ONE listening connection (the
 * SignalsService's): a signal for a subscriber makes the hub read that subscriber's new events
 * once, from the oldest position among its local streams, and write them to each stream (all
 * tabs), then the counts once. No stream polls on its own. Signals are hints: the events table
 * is the data, so a missed signal costs latency, not correctness (a reconnection of the
 * listener re-reads every open stream; with signals off or down, a fallback poll does).
 */
@Injectable()
export class InboxHub implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('InboxHub');
  private readonly streams = new Map<string, Set<StreamConnection>>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly dirty = new Set<string>();
  private timers: NodeJS.Timeout[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: InboxRepository,
    private readonly signals: SignalsService,
    private readonly deliveryEvents: DeliveryEvents,
  ) {}

  onModuleInit(): void {
    this.signals.subscribe(INBOX_TOPIC, { received: (key) => this.onSignal(key), resync: () => this.refreshAll() });
    this.deliveryEvents.onFinalised((o) => this.delivered(o));
    const heartbeat = setInterval(() => this.beat(), this.config.inbox.heartbeatMs);
    const fallback = setInterval(() => {
      if (!this.signals.listening) this.refreshAll();
    }, this.config.inbox.fallbackPollMs);
    heartbeat.unref();
    fallback.unref();
    this.timers = [heartbeat, fallback];
  }

  /** Streams end before the HTTP server closes (an open stream would hold it open). */
  beforeApplicationShutdown(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.each((c) => c.end());
    this.streams.clear();
  }

  get openStreams(): number {
    let n = 0;
    for (const set of this.streams.values()) n += set.size;
    return n;
  }

  /** A subscriber's inbox changed (committed): every replica's streams of it catch up. */
  changed(projectId: string, subscriberId: string): void {
    this.notify(streamKey(projectId, subscriberId));
  }

  /** Registers a stream positioned at `lastId` and sends it what it missed, then the counts. */
  async open(connection: StreamConnection): Promise<void> {
    const key = streamKey(connection.projectId, connection.subscriberId);
    let set = this.streams.get(key);
    if (!set) this.streams.set(key, (set = new Set()));
    set.add(connection);
    await this.refresh(key);
  }

  close(connection: StreamConnection): void {
    const key = streamKey(connection.projectId, connection.subscriberId);
    const set = this.streams.get(key);
    if (!set) return;
    set.delete(connection);
    if (set.size === 0) this.streams.delete(key);
  }

  /** Catches every local stream of one subscriber up; concurrent calls coalesce into one more pass. */
  refresh(key: string): Promise<void> {
    if (!this.streams.has(key)) return Promise.resolve();
    const current = this.running.get(key);
    if (current) {
      this.dirty.add(key);
      return current;
    }
    const run = (async () => {
      try {
        do {
          this.dirty.delete(key);
          await this.pump(key);
        } while (this.dirty.has(key));
      } catch (err) {
        this.logger.warn(`could not refresh inbox streams of ${key}: ${(err as Error).message}`);
      } finally {
        this.running.delete(key);
      }
    })();
    this.running.set(key, run);
    return run;
  }

  private async pump(key: string): Promise<void> {
    const set = this.streams.get(key);
    const parsed = parseStreamKey(key);
    if (!set?.size || !parsed) return;
    for (;;) {
      // A congested stream gets nothing now; its drain brings it back here, from its own last id.
      const ready = [...set].filter((c) => !c.congested);
      if (!ready.length) return;
      const from = ready.reduce((min, c) => (c.lastId < min ? c.lastId : min), ready[0].lastId);
      const events = await this.repository.eventsAfter(parsed.projectId, parsed.subscriberId, from, PAGE);
      for (const connection of ready) {
        for (const e of events) {
          const id = BigInt(e.id);
          if (id <= connection.lastId) continue;
          if (connection.congested) break;
          const frame = eventFrame(connection.format, e.id, e.type, e.data);
          if (frame) connection.write(frame);
          connection.lastId = id;
        }
      }
      if (events.length < PAGE) break;
    }
    const counts = await this.repository.counts(parsed.projectId, parsed.subscriberId);
    const data = { unread_count: counts.unread, unseen_count: counts.unseen, total: counts.total };
    const text = JSON.stringify(data);
    for (const connection of set) {
      if (connection.lastCounts === text || connection.congested) continue;
      connection.write(countsFrame(connection.format, connection.lastId.toString(), data));
      connection.lastCounts = text;
    }
  }

  private notify(key: string): void {
    if (this.signals.enabled) this.signals.send(INBOX_TOPIC, key);
    else this.onSignal(key);
  }

  private onSignal(key: string): void {
    if (key.endsWith('/*')) {
      const prefix = key.slice(0, -1);
      for (const k of this.streams.keys()) if (k.startsWith(prefix)) void this.refresh(k);
    } else {
      void this.refresh(key);
    }
  }

  private refreshAll(): void {
    for (const key of this.streams.keys()) void this.refresh(key);
  }

  /** New in-app messages were written by the worker: signal their subscribers (one project-wide signal for a big fan-out). */
  private delivered(o: Outcomes): void {
    const byProject = new Map<string, Set<string>>();
    for (const x of o.inbox) {
      const set = byProject.get(x.projectId) ?? new Set<string>();
      set.add(x.message.subscriberId);
      byProject.set(x.projectId, set);
    }
    for (const [projectId, subscribers] of byProject) {
      if (subscribers.size > FANOUT_PER_PROJECT) this.notify(`${projectId}/*`);
      else for (const subscriberId of subscribers) this.notify(streamKey(projectId, subscriberId));
    }
  }

  /** The heartbeat; a stream congested since the last one has a reader that stopped reading: closed. */
  private beat(): void {
    const now = Date.now();
    this.each((c) => {
      if (c.dropIfStalled(now, this.config.inbox.heartbeatMs)) {
        this.logger.debug(
          `closed a stream of ${streamKey(c.projectId, c.subscriberId)}: its reader stopped reading (INBOX_STREAM_MAX_BUFFER_BYTES)`,
        );
      } else if (!c.congested) {
        c.write(SSE_HEARTBEAT);
      }
    });
  }

  private each(fn: (c: StreamConnection) => void): void {
    for (const set of this.streams.values()) {
      for (const c of set) {
        try {
          fn(c);
        } catch {
          // A broken socket is removed by its close handler.
        }
      }
    }
  }
}
