import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { DATABASE, type Database } from '../database.js';
import { Db } from '../db.js';
import { assertTopic, decodeSignal, encodeSignal } from './signal-message.js';
import { SignalListener } from './signal-listener.js';
import { SignalSender, type SenderStats } from './signal-sender.js';
import { CURRENT_XACT_ID, FLUSH_SIGNALS } from './signals.sql.js';

/**
 * Someone who waits for changes on a topic. Signals are hints, never data: on either call,
 * read the table again. Both are called synchronously from the listener; do little in them
 * (set a flag, resolve a promise) and never throw.
 */
export interface SignalSubscriber {
  /** A signal for `key` arrived: what you wait for may have changed. */
  received(key: string): void;
  /** The listening connection was (re)established: signals may have been missed, read everything. */
  resync(): void;
}

/**
 * Wake-ups across processes over LISTEN/NOTIFY, without NOTIFY in the writing transaction
 * (DESIGN.md §5, seed 003). Global: any module injects it.
 *
 *   signals.send('jobs.due', 'sms')          after the commit that made the change
 *   signals.sendWhenCommitted(xid, t, k)     inside a transaction notifyd does not commit
 *   const off = signals.subscribe('job.end', { received(id) {…}, resync() {…} })
 *
 * Topics are dotted names, keys short ids (see signal-message.ts). A signal reaches every
 * process's subscribers of the topic, this one's included, a few ms after the flush. Delivery
 * is best effort: a crash between commit and flush, or a listener reconnection, loses some,
 * so every reader keeps a fallback poll and treats resync() as "read everything".
 */
@Injectable()
export class SignalsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Signals');
  private readonly subscribers = new Map<string, Set<SignalSubscriber>>();
  private readonly sender: SignalSender;
  private readonly listener: SignalListener | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE) database: Database,
    private readonly db: Db,
  ) {
    this.sender = new SignalSender(
      async (own, xids, messages) =>
        (await this.db.one<{ sent: number; aborted: number; keptXids: string[]; keptMessages: string[] }>(
          FLUSH_SIGNALS,
          [own, xids, messages],
        ))!,
      config.signals.flushMinGapMs,
      { warn: (m) => this.logger.warn(m) },
    );
    this.listener = config.signals.enabled
      ? new SignalListener({
          url: config.signals.listenUrl ?? database.url,
          heartbeatMs: config.signals.heartbeatMs,
          onSignal: (payload) => this.deliver(payload),
          onConnected: () => this.resyncAll(),
          log: { log: (m) => this.logger.log(m), warn: (m) => this.logger.warn(m) },
        })
      : undefined;
  }

  /** false when SIGNALS_ENABLED=false: sends are dropped and nothing is ever received. */
  get enabled(): boolean {
    return this.config.signals.enabled;
  }

  /** Whether the listening connection is up now (readers may poll faster while it is not). */
  get listening(): boolean {
    return this.listener?.connected ?? false;
  }

  /** Sends `topic:key` to every process, after the caller's commit. Never throws for a database problem. */
  send(topic: string, key: string): void {
    const message = encodeSignal(topic, key);
    if (this.enabled) this.sender.send(message);
  }

  /**
   * For a transaction notifyd does not commit itself: pass its id (`pg_current_xact_id()::text`,
   * ideally RETURNING'd by a statement it runs anyway, or from `currentXactId`). The signal goes
   * out once that transaction has committed, and never if it rolls back. A rollback to a
   * savepoint is not seen: the signal still goes out when the transaction commits.
   */
  sendWhenCommitted(xid: string, topic: string, key: string): void {
    const message = encodeSignal(topic, key);
    if (this.enabled) this.sender.sendWhenCommitted(xid, message);
  }

  /** The id of the transaction open on `runner` (one round trip; assigns an id if it had none). */
  async currentXactId(runner: QueryRunner): Promise<string> {
    const row = await this.db.one<{ xid: string }>(CURRENT_XACT_ID, [], runner);
    return row!.xid;
  }

  /** Calls `subscriber` for every signal on `topic`, from any process. Returns the unsubscribe function. */
  subscribe(topic: string, subscriber: SignalSubscriber): () => void {
    assertTopic(topic);
    let set = this.subscribers.get(topic);
    if (!set) this.subscribers.set(topic, (set = new Set()));
    set.add(subscriber);
    return () => {
      set.delete(subscriber);
      if (set.size === 0 && this.subscribers.get(topic) === set) this.subscribers.delete(topic);
    };
  }

  /** Sends everything buffered now instead of at the next flush (shutdown, tests). */
  flush(): Promise<void> {
    return this.sender.flush();
  }

  stats(): SenderStats & { listening: boolean; connections: number } {
    return { ...this.sender.stats, listening: this.listening, connections: this.listener?.connections ?? 0 };
  }

  onApplicationBootstrap(): void {
    if (!this.listener) {
      this.logger.log('SIGNALS_ENABLED=false: workers and waiters rely on polling alone');
      return;
    }
    this.listener.start();
  }

  /** After the worker's drain (its last outcomes may signal waiters): final flush, then stop listening. */
  async onApplicationShutdown(): Promise<void> {
    await this.sender.close();
    await this.listener?.stop();
  }

  private deliver(payload: string): void {
    const signal = decodeSignal(payload);
    if (!signal) return;
    const set = this.subscribers.get(signal.topic);
    if (!set) return;
    for (const subscriber of [...set]) this.call(() => subscriber.received(signal.key));
  }

  private resyncAll(): void {
    for (const set of this.subscribers.values())
      for (const subscriber of [...set]) this.call(() => subscriber.resync());
  }

  private call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.logger.warn(`a signal subscriber failed: ${(err as Error).message}`);
    }
  }
}
