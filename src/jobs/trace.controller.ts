import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { OperatorRole } from '../projects/auth/admin-auth.guard.js';
import { CurrentCaller, OperatorOrProjectAuth } from '../projects/auth/auth.decorators.js';
import { Operation } from '../common/http/operation.decorator.js';
import type { ProjectRef } from '../projects/project.types.js';
import { TraceDto, TraceQueryDto } from './dto/trace.dto.js';
import { TraceService } from './trace/trace.service.js';

@ApiTags('Admin: jobs')
@Controller('v1/admin')
export class TraceController {
  constructor(private readonly traces: TraceService) {}

  @Operation('GET /trace', [422], {
    summary:
      'Why didn’t they get it? Every message for one recipient in a time range, each with its verdict and evidence',
    description:
      'Give `recipient` (email, phone, chat id) or `subscriber_id`, and optionally `since`/`until` (default: the last 7 days; at most 31 days) and `limit` (default 50, at most 200). ' +
      'Answers the recipient resolved (subscribers ↔ addresses, active suppressions with their evidence), then the messages newest first: jobs (with attempts, provider answers and webhook evidence) ' +
      'and the sends refused when they were asked for (suppressed, opted out, capped, invalid address…), each with a `verdict` and a `reason` in words. ' +
      'A project key reads its own project (recipients as they are); the admin and read-only keys read any project, or one with `project_id` (recipients masked).',
  })
  @OperatorOrProjectAuth()
  traceRecipient(
    @Query() query: TraceQueryDto,
    @CurrentCaller() caller: { project: ProjectRef | null; operator: OperatorRole | null },
  ): Promise<TraceDto> {
    return this.traces.trace(query, { projectId: caller.project?.id ?? null, masked: caller.project === null });
  }
}
