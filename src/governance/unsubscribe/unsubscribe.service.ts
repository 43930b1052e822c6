import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { Channel } from '../../domain/channels.js';
import { Db } from '../../database/db.js';
import { verifyLegacyUnsubscribeToken } from '../legacy-links/legacy-link-token.js';
import { type LinkSigningKeys, linkSigningKeys } from '../link-keys.js';
import { SuppressionsService } from '../suppressions/suppressions.service.js';
import { PreferencesService } from '../preferences/preferences.service.js';
import { LOCALE_BY_EMAIL, LOCALE_BY_PHONE, SUBSCRIBERS_BY_EMAIL, SUBSCRIBERS_BY_PHONE } from './sql/unsubscribe.sql.js';
import type { UnsubscribeOutcome, UnsubscribeScope } from './unsubscribe-scope.js';
import { type UnsubscribeClaim, verifyUnsubscribeToken } from '../../common/unsubscribe/unsubscribe-token.js';
import { registerUnsubscribeSigner } from '../../common/unsubscribe/unsubscribe-url.js';

/** The subscriber field a link's address is on its channel; undefined where subscribers hold no such address. */
function addressField(channel: string): 'email' | 'phone' | undefined {
  if (channel === 'email') return 'email';
  if (channel === 'sms' || channel === 'whatsapp') return 'phone';
  return undefined;
}
const LOCALE_BY = { email: LOCALE_BY_EMAIL, phone: LOCALE_BY_PHONE };
const SUBSCRIBERS_BY = { email: SUBSCRIBERS_BY_EMAIL, phone: SUBSCRIBERS_BY_PHONE };

/**
 * One-click unsubscribe (RFC 8058): verifies links, finds the page's language, and records the
 * choice. A link signed for a topic stops that topic only (a subscriber preference, notifyd's
 * most specific scope); the broad choice is a marketing-scope suppression of the address on its
 * channel. Either way transactional mail still goes.
 */
@Injectable()
export class UnsubscribeService {
  private readonly logger = new Logger(UnsubscribeService.name);
  private readonly keys: LinkSigningKeys;
  private readonly legacySecret: string | undefined;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly db: Db,
    private readonly suppressions: SuppressionsService,
    private readonly preferences: PreferencesService,
  ) {
    // Throws without JWT_SECRET or UNSUBSCRIBE_SECRET: links are never signed with a guessable key.
    this.keys = linkSigningKeys(config, 'unsubscribe');
    this.legacySecret = config.unsubscribe.legacySecret;
    registerUnsubscribeSigner(
      config.server.publicUrl ? { publicUrl: config.server.publicUrl, key: this.keys.current } : undefined,
    );
  }

  /**
   * The claim of a genuine link: notifyd's own format, else (with JWT_LEGACY_SECRET) a link
   * notifyd 0.x sent, which was always about email and is handled exactly like one of ours.
   */
  verify(token: string): UnsubscribeClaim | undefined {
    const own = verifyUnsubscribeToken(token, this.keys.accepted);
    if (own) return own;
    const legacy = verifyLegacyUnsubscribeToken(token, this.legacySecret);
    return (
      legacy && {
        projectId: legacy.projectId,
        channel: 'email',
        address: legacy.address,
        topic: legacy.topic,
        expiresAt: legacy.expiresAt,
      }
    );
  }

  /** The locale of the subscriber behind the address, when there is one. */
  async localeOf(claim: UnsubscribeClaim): Promise<string | null> {
    const field = addressField(claim.channel);
    if (!field) return null;
    const sql = LOCALE_BY[field];
    try {
      return (await this.db.one<{ locale: string }>(sql, [claim.projectId, claim.address]))?.locale ?? null;
    } catch (err) {
      this.logger.warn(`unsubscribe page locale lookup failed: ${(err as Error).message}`);
      return null;
    }
  }

  /**
   * Records the choice (idempotent: a second click changes nothing). `topic`: an opt-out
   * preference for this topic on the link's channel, for the subscribers the address belongs to;
   * an address with no subscriber (a raw recipient) has no preferences, so it gets the marketing
   * suppression instead, and the outcome says so. `marketing`: a marketing-scope suppression.
   * Undefined when the project no longer exists.
   */
  async unsubscribe(
    claim: UnsubscribeClaim,
    scope: UnsubscribeScope,
    ip: string | undefined,
  ): Promise<UnsubscribeOutcome | undefined> {
    if (scope === 'topic' && claim.topic) {
      const subscribers = await this.subscribersOf(claim);
      if (subscribers.length > 0) {
        await this.preferences.optOutOfTopic(claim.projectId, subscribers, claim.channel, claim.topic, {
          actor: 'unsubscribe',
          ip: ip ?? null,
        });
        return { done: 'topic', topic: claim.topic };
      }
      return (await this.suppressMarketing(
        claim,
        ip,
        `one-click unsubscribe link for topic ${claim.topic}; no subscriber has this address`,
      ))
        ? { done: 'marketing-instead', topic: claim.topic }
        : undefined;
    }
    return (await this.suppressMarketing(claim, ip, 'one-click unsubscribe link')) ? { done: 'marketing' } : undefined;
  }

  private async subscribersOf(claim: UnsubscribeClaim): Promise<string[]> {
    const field = addressField(claim.channel);
    if (!field) return [];
    const sql = SUBSCRIBERS_BY[field];
    return (await this.db.rows<{ id: string }>(sql, [claim.projectId, claim.address])).map((r) => r.id);
  }

  private async suppressMarketing(claim: UnsubscribeClaim, ip: string | undefined, detail: string): Promise<boolean> {
    try {
      await this.suppressions.suppress({
        projectId: claim.projectId,
        channel: claim.channel as Channel,
        address: claim.address,
        scope: 'marketing',
        reason: 'unsubscribe',
        source: 'unsubscribe',
        detail,
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
