import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectAuditEvents } from '../projects/project-audit-events.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { AuditLogService } from './audit-log.service.js';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';

@Module({
  imports: [ProjectsModule],
  providers: [AuditService, AuditRepository, AuditLogService],
  exports: [AuditService, AuditRepository, AuditLogService],
})
export class AuditModule implements OnModuleInit {
  constructor(
    private readonly projectEvents: ProjectAuditEvents,
    private readonly audit: AuditService,
  ) {}

  /** Projects' admin changes (created, key rotated…) reach the log through ProjectAuditEvents. */
  onModuleInit(): void {
    this.projectEvents.onChange((line) => this.audit.record(line));
  }
}
