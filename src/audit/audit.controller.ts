import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../projects/auth/auth.decorators.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { AuditLogService } from './audit-log.service.js';
import { AuditListDto, AuditQueryDto } from './dto/audit.dto.js';

@ApiTags('Admin: audit')
@Controller('v1/admin/audit')
export class AuditController {
  constructor(private readonly log: AuditLogService) {}

  @Get()
  @AdminAuth()
  @ApiOperation({
    operationId: 'listAudit',
    summary: 'The audit log of state changes, newest first, filtered by actor, action, target, project and time',
  })
  @ApiErrors(400, 422)
  listAudit(@Query() q: AuditQueryDto): Promise<AuditListDto> {
    return this.log.list(q);
  }
}
