import { Module } from '@nestjs/common';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { DigestController } from './digest.controller.js';
import { DigestRepository } from './digest.repository.js';
import { DigestService } from './digest.service.js';

/**
 * The operator digest: ranked findings with actions (one rule per file in findings/), as JSON
 * and Markdown. DigestService is exported for the MCP tool, the CLI and scheduled notifications.
 */
@Module({
  imports: [WebhooksModule],
  controllers: [DigestController],
  providers: [DigestRepository, DigestService],
  exports: [DigestService],
})
export class DigestModule {}
