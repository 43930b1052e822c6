import { Injectable, Logger } from '@nestjs/common';
import type { Channel, DeliveryResult } from '../../connectors/connector.js';
import type { Outcomes } from './outcomes.js';

/** Called after a set of outcomes is durably written (never before: listeners read the table). */
export type FinalisedListener = (outcomes: Outcomes) => void | Promise<void>;

/** One provider call as it happened: what it carried, how long it took, what came back. */
export interface ProviderCall {
  channel: Channel;
  provider: string;
  durationMs: number;
  /** The attempt each message was and the job's limit, in the order of results. */
  attempts: { attempt: number; maxAttempts: number }[];
  results: DeliveryResult[];
}

/** Observes provider calls (metrics); synchronous and cheap: it runs on the send path. */
export type ProviderCallListener = (call: ProviderCall) => void;

/**
 * The seam after finalisation: signals (a caller waits on a job), outbound webhooks and
 * metrics subscribe here instead of editing the dispatcher. A listener's failure is logged
 * and never affects delivery or other listeners.
 */
@Injectable()
export class DeliveryEvents {
  private readonly logger = new Logger(DeliveryEvents.name);
  private readonly listeners: FinalisedListener[] = [];
  private readonly callListeners: ProviderCallListener[] = [];

  onProviderCall(listener: ProviderCallListener): void {
    this.callListeners.push(listener);
  }

  emitProviderCall(call: ProviderCall): void {
    for (const listener of this.callListeners) {
      try {
        listener(call);
      } catch (err) {
        this.logger.warn(`a provider-call listener failed: ${(err as Error).message}`);
      }
    }
  }

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
