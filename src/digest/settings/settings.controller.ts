import { ApiOkResponse } from '@nestjs/swagger';
import { z } from 'zod';
import { AdminController } from '../../projects/auth/auth.decorators.js';
import { SettingsService } from './settings.service.js';
import { type EffectiveSettings, effectiveSettings } from './settings.types.js';
import { Operation } from '../../common/http/operation.decorator.js';

const example: EffectiveSettings = {
  version: '0.1.0',
  role: 'all',
  public_url: 'https://notify.example.com',
  channels: [
    {
      channel: 'email',
      provider: 'resend',
      fallback_provider: 'smtp',
      rate_per_sec: 0,
      paced: false,
      rate_text: 'unpaced',
      burst: 0,
    },
  ],
  pacing: {
    burst_secs: 1,
    rate_limit_pause_secs: 2,
    quota_pause_secs: 3_600,
    operator_pause_default_secs: 3_600,
    adaptive: true,
    fair_share: true,
  },
  worker: { max_attempts: 5, lease_secs: 600, send_timeout_ms: 30_000 },
  retention: { job_retention_days: 30, failed_job_retention_days: 90 },
  provider_webhooks: [
    {
      provider: 'resend',
      route: '/webhooks/resend',
      configured: true,
      setting: 'RESEND_WEBHOOK_SECRET',
      last_event_at: '2026-11-30T05:59:00.000Z',
    },
  ],
};
const schema = {
  ...(z.toJSONSchema(effectiveSettings, { io: 'output', target: 'openapi-3.0' }) as Record<string, unknown>),
  example,
};

@AdminController('v1/admin/config', 'Admin: digest', { readers: true })
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Operation('GET', [], {
    summary:
      'The effective configuration, secrets redacted: providers and fallbacks per channel, lane rates and bursts, pause defaults, provider webhooks and their last event, PUBLIC_URL, retention',
  })
  @ApiOkResponse({ schema })
  getConfig(): Promise<EffectiveSettings> {
    return this.settings.effective();
  }
}
