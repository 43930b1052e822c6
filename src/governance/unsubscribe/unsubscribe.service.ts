import { createHmac } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { Channel } from '../../config/sections/connectors.config.js';
import { Db } from '../../database/db.js';
import { SuppressionsService } from '../suppressions/suppressions.service.js';
import { LOCALE_BY_EMAIL, LOCALE_BY_PHONE } from './sql/unsubscribe.sql.js';
import { type SigningKey, type UnsubscribeClaim, verifyUnsubscribeToken } from './unsubscribe-token.js';
import { registerUnsubscribeSigner } from './unsubscribe-url.js';

/**
 * One-click unsubscribe (RFC 8058): verifies links, finds the page's language, and records the
 * choice. The broad choice (and the one-click POST mail clients send) is a marketing-scope
 * suppression of the address on its channel: marketing stops, transactional mail still goes.
 */
@Injectable()
export class UnsubscribeService {
  private readonly logger = new Logger(UnsubscribeService.name);
  private readonly keys: SigningKey[];

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly db: Db,
    private readonly suppressions: SuppressionsService,
  ) {
    const u = config.unsubscribe;
    const current: SigningKey = u.secret
      ? { id: u.keyId, secret: u.secret }
      : // No key of its own: one derived from JWT_SECRET, so links work out of the box.
        { id: 'j', secret: createHmac('sha256', config.auth.jwtSecret ?? '').update('notifyd unsubscribe links').digest('hex') };
    this.keys = [current, ...u.previousKeys];
    registerUnsubscribeSigner(config.server.publicUrl ? { publicUrl: config.server.publicUrl, key: current } : undefined);
  }

  verify(token: string): UnsubscribeClaim | undefined {
    return verifyUnsubscribeToken(token, this.keys);
  }

  /** The locale of the subscriber behind the address, when there is one. */
  async localeOf(claim: UnsubscribeClaim): Promise<string | null> {
    const sql = claim.channel === 'email' ? LOCALE_BY_EMAIL : claim.channel === 'sms' || claim.channel === 'whatsapp' ? LOCALE_BY_PHONE : undefined;
    if (!sql) return null;
    try {
      return (await this.db.one<{ locale: string }>(sql, [claim.projectId, claim.address]))?.locale ?? null;
    } catch (err) {
      this.logger.warn(`unsubscribe page locale lookup failed: ${(err as Error).message}`);
      return null;
    }
  }

  /** Records the choice (idempotent: a second click changes nothing). False when the project no longer exists. */
  async unsubscribe(claim: UnsubscribeClaim, ip: string | undefined): Promise<boolean> {
    try {
      await this.suppressions.suppress({
        projectId: claim.projectId,
        channel: claim.channel as Channel,
        address: claim.address,
        scope: 'marketing',
        reason: 'unsubscribe',
        source: 'unsubscribe',
        detail: 'one-click unsubscribe link',
        ip: ip ?? null,
      });
      return true;
    } catch (err) {
      // A project deleted since the link was sent (foreign key): nothing left to unsubscribe from.
      if ((err as { code?: string; driverError?: { code?: string } }).driverError?.code === '23503') return false;
      throw err;
    }
  }
}
