import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { OutboundMessage } from '../../connectors/connector.js';
import { Db } from '../../database/db.js';
import { verifyLegacyTrackingToken } from '../legacy-links/legacy-link-token.js';
import { type LinkSigningKeys, linkSigningKeys } from '../link-keys.js';
import { instrumentHtml } from './instrument-html.js';
import { PROJECT_TRACKING, RECORD_ENGAGEMENT } from './sql/tracking.sql.js';
import { parseProjectTracking, trackingFor } from './tracking-policy.js';
import { registerSettingRule } from '../../projects/setting-rules.js';
import { signTracking, type TrackingClaim, verifyTracking } from './tracking-token.js';

/**
 * notifyd's own open and click tracking, independent of the provider: the worker wraps links
 * and adds a pixel to the HTML of email it is about to send (when PUBLIC_URL is set and the
 * rules of tracking-policy.ts allow), and the public /t/ routes record the first open and
 * click on the job.
 */
@Injectable()
export class TrackingService {
  private readonly logger = new Logger(TrackingService.name);
  private readonly keys: LinkSigningKeys;
  private readonly publicUrl: string | undefined;
  private readonly legacySecret: string | undefined;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly db: Db,
  ) {
    // The link key ring's tracking secrets: never an unsubscribe key, rotated with it (link-keys.ts). Throws without a secret.
    this.keys = linkSigningKeys(config, 'tracking');
    this.publicUrl = config.server.publicUrl;
    this.legacySecret = config.unsubscribe.legacySecret;
    registerSettingRule('tracking', parseProjectTracking);
  }

  /** Instruments the email messages of a batch in place; one settings query for the batch. Never blocks a send. */
  async instrument(messages: OutboundMessage[]): Promise<void> {
    const publicUrl = this.publicUrl;
    const candidates = messages.filter((m) => m.channel === 'email' && m.bodyHtml);
    if (!publicUrl || candidates.length === 0) return;
    let settings: Map<string, unknown>;
    try {
      const rows = await this.db.rows<{ id: string; tracking: unknown }>(PROJECT_TRACKING, [
        [...new Set(candidates.map((m) => m.projectId))],
      ]);
      settings = new Map(rows.map((r) => [r.id, r.tracking]));
    } catch (err) {
      this.logger.warn(
        `tracking settings unreadable, sending ${candidates.length} email(s) without tracking: ${(err as Error).message}`,
      );
      return;
    }
    for (const m of candidates) {
      const choice = trackingFor(settings.get(m.projectId), m.payload.track, m.marketing);
      if (!choice.opens && !choice.clicks) continue;
      m.bodyHtml = instrumentHtml(m.bodyHtml!, {
        ...choice,
        publicUrl,
        link: (url) =>
          `${publicUrl}/t/c/${signTracking({ kind: 'c', jobId: m.jobId, projectId: m.projectId, url }, this.keys.current)}`,
        pixel: () =>
          `${publicUrl}/t/o/${signTracking({ kind: 'o', jobId: m.jobId, projectId: m.projectId }, this.keys.current)}.gif`,
      });
    }
  }

  /** Records an open when the pixel's token is genuine (the pixel is served either way). */
  async open(token: string): Promise<void> {
    const claim = verifyTracking(token.replace(/\.gif$/i, ''), this.keys.accepted);
    if (claim?.kind === 'o') await this.record(claim, 'opened', {});
  }

  /** The destination of a genuine click link (recorded), else undefined. */
  async click(token: string): Promise<string | undefined> {
    const claim = verifyTracking(token, this.keys.accepted);
    if (claim?.kind !== 'c') return this.legacyClick(token);
    // Links signed before wrapping checked the URL may hold one that does not parse: unknown, not a 500.
    const target = parsedUrl(claim.url);
    if (!target) return undefined;
    // Only the host is kept: full URLs can carry personal data in their query.
    await this.record(claim, 'clicked', { host: target.host });
    // The parsed form: percent-encoded, so a non-ASCII URL is a valid Location header (raw, it made the reply fail).
    return target.href;
  }

  /**
   * A click link notifyd 0.x sent (JWT_LEGACY_SECRET): it still leads where it did. Nothing is
   * recorded: its job lived in the 0.x database, and `notifyd import notifyd-0x` carries no jobs.
   */
  private legacyClick(token: string): string | undefined {
    const legacy = verifyLegacyTrackingToken(token, this.legacySecret);
    // Parsed like ours: a URL that does not parse is unknown, a non-ASCII one goes out percent-encoded.
    return legacy?.kind === 'c' ? parsedUrl(legacy.url)?.href : undefined;
  }

  private async record(
    claim: TrackingClaim,
    type: 'opened' | 'clicked',
    payload: Record<string, unknown>,
  ): Promise<void> {
    try {
      await this.db.exec(RECORD_ENGAGEMENT, [
        claim.jobId,
        claim.projectId,
        type,
        `notifyd:${type}:${randomUUID()}`,
        JSON.stringify(payload),
      ]);
    } catch (err) {
      // A recipient's mail client must never see an error for a tracking write.
      this.logger.warn(`could not record ${type} for job ${claim.jobId}: ${(err as Error).message}`);
    }
  }
}

/** The URL if it parses, else undefined. */
function parsedUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
