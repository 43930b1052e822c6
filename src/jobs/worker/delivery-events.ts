import { Injectable, Logger } from '@nestjs/common';
import type { Outcomes } from './outcomes.js';

/** Called after a set of outcomes is durably written (never before: listeners read the table). */
export type FinalisedListener = (outcomes: Outcomes) => void | Promise<void>;

/**
 * The seam after finalisation: signals (a caller waits on a job), outbound webhooks and
 * metrics subscribe here instead of editing the dispatcher. A listener's failure is logged
 * and never affects delivery or other listeners.
 */
@Injectable()
export class DeliveryEvents {
  private readonly logger = new Logger(DeliveryEvents.name);
  private readonly listeners: FinalisedListener[] = [];

  onFinalised(listener: FinalisedListener): void {
    this.listeners.push(listener);
  }

  async emitFinalised(outcomes: Outcomes): Promise<void> {
    if (this.listeners.length === 0 || outcomes.size === 0) return;
    await Promise.all(
      this.listeners.map(async (listener) => {
        try {
          await listener(outcomes);
        } catch (err) {
          this.logger.warn(`a delivery listener failed: ${(err as Error).message}`);
        }
      }),
    );
  }
}
