import { Inject, Injectable } from '@nestjs/common';
import { VERSION } from '../../common/version.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { CHANNELS } from '../../domain/channels.js';
import { Db } from '../../database/db.js';
import { rateText } from '../../pacing/lane.presenter.js';
import { OPERATOR_PAUSE_DEFAULT_SECS } from '../../pacing/lane-state.service.js';
import { LAST_PROVIDER_EVENTS } from './settings.sql.js';
import type { EffectiveSettings } from './settings.types.js';

/** How far back the newest provider event is looked for. */
const LAST_EVENT_WITHIN_SECS = 7 * 86_400;

/**
 * The effective configuration with secrets redacted (GET /v1/admin/config, MCP get_config):
 * built from the validated config object, never from the environment, so it says what the
 * process actually runs with. A secret appears only as "configured: true/false".
 */
@Injectable()
export class SettingsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Db,
  ) {}

  async effective(): Promise<EffectiveSettings> {
    const c = this.config;
    const last = new Map(
      (await this.db.rows<{ provider: string; lastEventAt: Date }>(LAST_PROVIDER_EVENTS, [LAST_EVENT_WITHIN_SECS])).map(
        (r) => [r.provider, r.lastEventAt.toISOString()],
      ),
    );
    const webhooks: [provider: string, configured: boolean, setting: string][] = [
      ['resend', Boolean(c.providerWebhooks.resendSecret), 'RESEND_WEBHOOK_SECRET'],
      [
        'postmark',
        Boolean(c.providerWebhooks.postmark.username && c.providerWebhooks.postmark.password),
        'POSTMARK_WEBHOOK_USERNAME, POSTMARK_WEBHOOK_PASSWORD',
      ],
      ['sendgrid', Boolean(c.providerWebhooks.sendgridPublicKey), 'SENDGRID_WEBHOOK_PUBLIC_KEY'],
      ['ses', c.providerWebhooks.ses.topicArns.length > 0, 'SES_SNS_TOPIC_ARNS'],
      ['twilio', Boolean(c.sms.twilio.authToken && c.server.publicUrl), 'TWILIO_AUTH_TOKEN, PUBLIC_URL'],
      ['whatsapp', Boolean(c.providerWebhooks.whatsapp.appSecret), 'WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN'],
    ];
    return {
      version: VERSION,
      role: c.server.role,
      public_url: c.server.publicUrl ?? null,
      channels: CHANNELS.map((channel) => {
        const rate = c.pacing.rates[channel];
        return {
          channel,
          provider: c.connectors.providers[channel] ?? null,
          fallback_provider: c.failover.fallbacks[channel] ?? null,
          rate_per_sec: rate,
          paced: rate > 0,
          rate_text: rateText(rate),
          burst: rate > 0 ? Math.max(1, rate * c.pacing.burstSecs) : 0,
        };
      }),
      pacing: {
        burst_secs: c.pacing.burstSecs,
        rate_limit_pause_secs: c.pacing.rateLimitPauseMs / 1000,
        quota_pause_secs: c.pacing.quotaPauseMs / 1000,
        operator_pause_default_secs: OPERATOR_PAUSE_DEFAULT_SECS,
        adaptive: c.pacing.adaptive,
        fair_share: c.pacing.fairShare,
      },
      worker: {
        max_attempts: c.worker.maxAttempts,
        lease_secs: c.worker.leaseMs / 1000,
        send_timeout_ms: c.worker.sendTimeoutMs,
      },
      retention: {
        job_retention_days: c.worker.retentionDays ?? null,
        failed_job_retention_days: c.worker.failedRetentionDays ?? null,
      },
      provider_webhooks: webhooks.map(([provider, configured, setting]) => ({
        provider,
        route: `/webhooks/${provider}`,
        configured,
        setting,
        last_event_at: last.get(provider) ?? null,
      })),
    };
  }
}
