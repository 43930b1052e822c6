import { Injectable } from '@nestjs/common';
import { SettingsService } from '../../digest/settings/settings.service.js';
import { effectiveSettings } from '../../digest/settings/settings.types.js';
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { renderTextTable } from '../server/text-table.js';

/** get_config: the effective configuration, secrets redacted, so an agent can tie a finding to the setting behind it. */
@Injectable()
export class SettingsTools implements McpToolProvider {
  constructor(private readonly settings: SettingsService) {}

  tools() {
    return [
      defineTool({
        name: 'get_config',
        title: 'Effective configuration',
        description:
          'The configuration this instance runs with, secrets redacted: provider and fallback per channel, lane rates ("unpaced" for 0) and bursts, ' +
          'pause defaults, attempts, whether each provider’s delivery webhooks are configured and when the last event arrived, PUBLIC_URL, retention. ' +
          'Use it to name the exact setting a digest action refers to (e.g. EMAIL_RATE_PER_SEC).',
        annotations: READ_ONLY,
        audience: 'operator',
        input: z.strictObject({}),
        output: effectiveSettings,
        run: async () => {
          const s = await this.settings.effective();
          const p = s.pacing;
          const text = [
            `notifyd ${s.version} (${s.role}); PUBLIC_URL ${s.public_url ?? 'unset'}; retention: sent ${s.retention.job_retention_days ?? '∞'} d, failed ${s.retention.failed_job_retention_days ?? '∞'} d; ` +
              `WORKER_MAX_ATTEMPTS ${s.worker.max_attempts}.`,
            `Pauses: a 429 without Retry-After ${p.rate_limit_pause_secs} s, a quota without reset ${p.quota_pause_secs} s, pause_lane default ${p.operator_pause_default_secs} s; ` +
              `adaptive ${p.adaptive ? 'on' : 'off'}, fair share ${p.fair_share ? 'on' : 'off'}.`,
            '',
            renderTextTable({
              rows: s.channels.filter((c) => c.provider),
              columns: ['channel', 'provider', 'fallback_provider', 'rate_text', 'burst'],
            }),
            '',
            renderTextTable({
              rows: s.provider_webhooks,
              columns: ['provider', 'route', 'configured', 'setting', 'last_event_at'],
            }),
          ].join('\n');
          return { structured: s, text };
        },
      }),
    ];
  }
}
