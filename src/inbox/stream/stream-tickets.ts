import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { TokenGeneration } from '../auth/subscriber-tokens.js';
import { InboxRepository } from '../inbox.repository.js';

const hash = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/** Whom a ticket was issued to, read back by its single use. */
export interface TicketOwner {
  projectId: string;
  subscriberId: string;
  generation: TokenGeneration;
  /** The expiry of the subscriber token the ticket was minted from; absent for a project key. */
  tokenExpiresAt?: Date;
}

/**
 * Single-use, short-lived tickets for the stream URL: EventSource cannot send headers, and a
 * long-lived token in a URL ends up in proxy logs and browser history. A ticket is 256 random
 * bits, stored as its SHA-256 in PostgreSQL (any replica may serve the stream) and deleted by
 * the read that uses it. A ticket minted with a subscriber token stores that token's expiry: it
 * expires with the token if that comes first, and the stream it opens ends then.
 */
@Injectable()
export class StreamTickets {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: InboxRepository,
  ) {}

  /**
   * `generation`: the token generation the ticket stands for; a revocation before its use ends it.
   * `tokenExpiresAt`: when the subscriber token it is minted from expires (absent for a project
   * key); the ticket does not outlive it.
   */
  async issue(
    projectId: string,
    subscriberId: string,
    generation: TokenGeneration,
    tokenExpiresAt?: Date,
  ): Promise<{ ticket: string; expiresInSeconds: number }> {
    const ticket = `tkt_${randomBytes(32).toString('base64url')}`;
    const ttlSecs = this.config.inbox.ticketTtlSecs;
    await this.repository.insertTicket(hash(ticket), projectId, subscriberId, ttlSecs, generation, tokenExpiresAt);
    const tokenSecs = tokenExpiresAt
      ? Math.max(0, Math.floor((tokenExpiresAt.getTime() - Date.now()) / 1000))
      : ttlSecs;
    return { ticket, expiresInSeconds: Math.min(ttlSecs, tokenSecs) };
  }

  /** The ticket's project, subscriber, generation and token expiry, once; undefined when unknown, used or expired. */
  async consume(ticket: string): Promise<TicketOwner | undefined> {
    if (!/^tkt_[A-Za-z0-9_-]{43}$/.test(ticket)) return undefined;
    const row = await this.repository.consumeTicket(hash(ticket));
    return (
      row && {
        projectId: row.projectId,
        subscriberId: row.subscriberId,
        generation: { epoch: row.epoch, version: row.version },
        tokenExpiresAt: row.tokenExpiresAt ?? undefined,
      }
    );
  }
}
