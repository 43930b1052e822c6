import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { Db } from '../../database/db.js';
import { SignalsService } from '../../database/signals/signals.service.js';
import { PeriodicTasks } from '../../periodic/periodic-tasks.service.js';
import { DeliveryEvents } from '../worker/delivery-events.js';
import type { Outcomes } from '../worker/outcomes.js';
import { JOB_END_TOPIC } from './job-waiter.service.js';
import { ANYONE_WAITING, PURGE_EXPIRED_WAITERS, TAKE_WAITED_JOBS } from './wait.sql.js';

const PURGE_EVERY_MS = 60_000;

/**
 * The worker side of `wait`: after outcomes are written, the final ones (sent, skipped,
 * failed) that somebody waits for get a `job.end` signal, and only those: signalling every
 * job's end would put every finalise in the queue for the NOTIFY lock (seed 003). One
 * statement per finalised batch finds them, after a cheaper one that says whether anybody
 * waits at all; retries and re-queues are not ends.
 */
@Injectable()
export class JobEndSignals implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('Wait');

  constructor(
    private readonly db: Db,
    private readonly signals: SignalsService,
    private readonly events: DeliveryEvents,
    private readonly periodic: PeriodicTasks,
  ) {}

  onModuleInit(): void {
    this.events.onFinalised((outcomes) => this.signalEnds(outcomes));
  }

  onApplicationBootstrap(): void {
    // Registrations of waiters whose job never ended in time: one replica per tick cleans them.
    this.periodic.every('job-waiters-purge', PURGE_EVERY_MS, () => this.db.exec(PURGE_EXPIRED_WAITERS));
  }

  async signalEnds(outcomes: Outcomes): Promise<void> {
    const ended = [...outcomes.sent, ...outcomes.skipped, ...outcomes.failed].map((o) => o.id);
    if (ended.length === 0 || !this.signals.enabled) return;
    try {
      if (!(await this.db.one<{ waiting: boolean }>(ANYONE_WAITING))?.waiting) return;
      const waited = await this.db.rows<{ jobId: string }>(TAKE_WAITED_JOBS, [ended]);
      for (const { jobId } of waited) this.signals.send(JOB_END_TOPIC, jobId);
    } catch (err) {
      // Waiters re-read on their fallback poll.
      this.logger.warn(`could not signal ended jobs to their waiters: ${(err as Error).message}`);
    }
  }
}
