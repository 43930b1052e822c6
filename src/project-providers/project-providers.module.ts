import { Module } from '@nestjs/common';
import { ChannelReportService } from './channel-report.service.js';
import { ProjectProvidersRepository } from './project-providers.repository.js';
import { ProjectProvidersService } from './project-providers.service.js';
import { AuditModule } from '../audit/audit.module.js';
import { ConnectorsModule } from '../connectors/connectors.module.js';
import { ProjectsModule } from '../projects/projects.module.js';

/**
 * Per-project providers (admin API, encrypted credentials); global so that the worker reads
 * them. Also the channel report (GET /v1/channels): which provider carries each channel.
 */
@Module({
  imports: [AuditModule, ConnectorsModule, ProjectsModule],
  providers: [ProjectProvidersRepository, ProjectProvidersService, ChannelReportService],
  exports: [ProjectProvidersService, ChannelReportService],
})
export class ProjectProvidersModule {}
