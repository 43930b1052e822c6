import { Query } from '@nestjs/common';
import { AdminController } from '../projects/auth/auth.decorators.js';
import { Operation } from '../common/http/operation.decorator.js';
import { AuditLogService } from './audit-log.service.js';
import { AuditListDto, AuditQueryDto } from './dto/audit.dto.js';

@AdminController('v1/admin/audit', 'Admin: audit')
export class AuditController {
  constructor(private readonly log: AuditLogService) {}

  @Operation('GET', [400, 422], {
    summary: 'The audit log of state changes, newest first, filtered by actor, action, target, project and time',
  })
  listAudit(@Query() q: AuditQueryDto): Promise<AuditListDto> {
    return this.log.list(q);
  }
}
