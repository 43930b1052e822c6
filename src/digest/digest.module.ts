import { Module } from '@nestjs/common';
import { WorkerHeartbeatModule } from '../jobs/heartbeat/worker-heartbeat.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { BreakerFailoverState } from './breaker-failover-state.js';
import { DigestRepository } from './digest.repository.js';
import { DigestService } from './digest.service.js';
import { FAILOVER_STATE } from './failover-state.js';
import { DigestNotifier } from './notify/digest-notifier.service.js';
import { DigestSender } from './notify/digest-sender.js';
import { RollupRepository } from './rollup/rollup.repository.js';
import { DigestRollup } from './rollup/rollup.service.js';
import { SettingsService } from './settings/settings.service.js';
import { PacingModule } from '../pacing/pacing.module.js';
import { ConnectorsModule } from '../connectors/connectors.module.js';
import { AuditModule } from '../audit/audit.module.js';
import { PeriodicModule } from '../periodic/periodic.module.js';

/**
 * The operator digest: ranked findings with actions (one rule per file in findings/), as JSON
 * and Markdown. DigestService is exported for the MCP tool, the CLI and scheduled notifications.
 */
@Module({
  imports: [PacingModule, ConnectorsModule, AuditModule, PeriodicModule, WebhooksModule, WorkerHeartbeatModule],
  providers: [
    DigestRepository,
    DigestService,
    DigestSender,
    DigestNotifier,
    RollupRepository,
    DigestRollup,
    SettingsService,
    { provide: FAILOVER_STATE, useClass: BreakerFailoverState },
  ],
  exports: [DigestService, DigestNotifier, DigestRollup, SettingsService],
})
export class DigestModule {}
