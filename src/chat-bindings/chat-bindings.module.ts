import { Module } from '@nestjs/common';
import { ChatAccessService } from './chat-access.service.js';
import { ChatBindingsRepository } from './chat-bindings.repository.js';
import { ChatBindingsService } from './chat-bindings.service.js';
import { AuditModule } from '../audit/audit.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { ConnectorsModule } from '../connectors/connectors.module.js';
import { ProjectProvidersModule } from '../project-providers/project-providers.module.js';

/** Chat bindings (admin API, enforced at enqueue and in the worker); jobs imports it for both. */
@Module({
  imports: [AuditModule, ProjectsModule, ConnectorsModule, ProjectProvidersModule],
  providers: [ChatBindingsRepository, ChatBindingsService, ChatAccessService],
  exports: [ChatBindingsService, ChatAccessService],
})
export class ChatBindingsModule {}
