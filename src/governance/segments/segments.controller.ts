import { Body } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { CurrentProject } from '../../projects/auth/auth.decorators.js';
import { ProjectController } from '../../projects/auth/project-controller.decorator.js';
import { Operation } from '../../common/http/operation.decorator.js';
import type { ProjectRef } from '../../projects/project.types.js';
import { SEGMENT_SCHEMA, SegmentPreviewDto } from './dto/segment.dto.js';
import { SegmentsService } from './segments.service.js';

@ProjectController('v1/segments', 'Segments')
export class SegmentsController {
  constructor(private readonly segments: SegmentsService) {}

  @Operation('POST /preview', [400], 'Count the subscribers a segment matches, with a sample of ids')
  @ApiBody({ schema: SEGMENT_SCHEMA })
  previewSegment(
    @CurrentProject() project: ProjectRef,
    @Body() body: Record<string, unknown>,
  ): Promise<SegmentPreviewDto> {
    return this.segments.preview(project.id, body);
  }
}
