import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AuditService } from '../../audit/audit.service.js';
import { ApiError } from '../../common/errors/api-error.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import {
  DIGEST_TARGET_HELP,
  type DigestConfig,
  type DigestNotifyLevel,
  type DigestTarget,
  parseDigestTarget,
} from '../../config/sections/digest.config.js';
import { PeriodicTasks } from '../../periodic/periodic-tasks.service.js';
import { parseDigestWindow } from '../../common/validation/digest-window.js';
import { DigestService } from '../digest.service.js';
import { DIGEST_WINDOWS, type DigestReport, type DigestWindow } from '../digest.types.js';
import { reaches } from '../findings/rank.js';
import { chatHeadline, renderChat } from '../render/chat.js';
import { DigestSender, type SentDigest } from './digest-sender.js';
import type { Actor } from '../../domain/actor.js';

export interface DigestNotification extends SentDigest {
  /** false when the scheduled run found nothing at DIGEST_NOTIFY_LEVEL and sent nothing. */
  sent: boolean;
  window: DigestWindow;
  summary: DigestReport['summary'];
}

/** The digest window a schedule reports on: the smallest window covering the interval. */
export function windowForInterval(ms: number): DigestWindow {
  const fits = (Object.entries(DIGEST_WINDOWS) as [DigestWindow, number][]).find(([, secs]) => secs * 1000 >= ms);
  return fits ? fits[0] : '30d';
}

/** Whether a report deserves a scheduled message at this level. */
export function worthSending(report: DigestReport, level: DigestNotifyLevel): boolean {
  if (level === 'always') return true;
  return report.findings.some((f) => f.code !== 'all_quiet' && reaches(f.severity, level));
}

/**
 * Digest notifications: on demand (POST /v1/admin/digest/notify, MCP, CLI) to a given or the
 * configured target, and on a schedule (DIGEST_NOTIFY every DIGEST_NOTIFY_EVERY, only when a
 * finding reaches DIGEST_NOTIFY_LEVEL), once per tick across replicas.
 */
@Injectable()
export class DigestNotifier implements OnApplicationBootstrap {
  private readonly logger = new Logger('DigestNotify');
  /** The DIGEST_NOTIFY* settings: the configured target, how often, from which level. */
  private readonly settings: DigestConfig;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly digest: DigestService,
    private readonly sender: DigestSender,
    private readonly periodic: PeriodicTasks,
    private readonly audit: AuditService,
  ) {
    this.settings = config.digest;
  }

  onApplicationBootstrap(): void {
    if (!this.settings.target) return;
    // The first tick waits one interval: a deploy or a crash loop must not send a digest each time.
    this.periodic.every('digest-notify', this.settings.everyMs, () => this.scheduled(), { runFirstTick: false });
  }

  /** On demand: always sends (whatever the level). `to` overrides DIGEST_NOTIFY. */
  async notify(
    options: { to?: string; window?: string },
    by: Actor = { actor: 'system' },
  ): Promise<DigestNotification> {
    const target = this.target(options.to);
    this.sender.assertUsable(target);
    const window = parseDigestWindow(options.window ?? windowForInterval(this.settings.everyMs));
    const report = await this.digest.build({ window });
    const sent = await this.sender.send(target, chatHeadline(report), renderChat(report));
    await this.audit.record({
      ...by,
      action: 'digest.notified',
      resource: target.kind,
      metadata: { window, provider: sent.provider },
    });
    return { ...sent, sent: true, window, summary: report.summary };
  }

  /** The scheduled run: the configured target, only when something reaches the level. */
  async scheduled(): Promise<DigestNotification | undefined> {
    const target = this.settings.target;
    if (!target) return undefined;
    const window = windowForInterval(this.settings.everyMs);
    const report = await this.digest.build({ window });
    if (!worthSending(report, this.settings.level)) {
      return { provider: target.kind, provider_message_id: null, sent: false, window, summary: report.summary };
    }
    const sent = await this.sender.send(target, chatHeadline(report), renderChat(report));
    this.logger.log(
      `digest sent through ${sent.provider} (${report.summary.critical} critical, ${report.summary.warning} warning)`,
    );
    return { ...sent, sent: true, window, summary: report.summary };
  }

  private target(to: string | undefined): DigestTarget {
    if (to === undefined) {
      if (!this.settings.target)
        throw ApiError.unprocessable(
          'no_target',
          `Nothing to send to: pass "to" (${DIGEST_TARGET_HELP.replace('must be ', '')}) or set DIGEST_NOTIFY.`,
        );
      return this.settings.target;
    }
    const target = parseDigestTarget(to);
    if (!target) throw ApiError.unprocessable('validation_failed', `to ${DIGEST_TARGET_HELP}.`);
    return target;
  }
}
