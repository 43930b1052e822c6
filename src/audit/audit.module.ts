import { Global, Module } from '@nestjs/common';
import { AuditLogService } from './audit-log.service.js';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';

@Global()
@Module({
  providers: [AuditService, AuditRepository, AuditLogService],
  exports: [AuditService, AuditRepository, AuditLogService],
})
export class AuditModule {}
