import { Body, Param, Query } from '@nestjs/common';
import { CurrentProject } from '../projects/auth/auth.decorators.js';
import { ProjectController } from '../projects/auth/project-controller.decorator.js';
import { Operation } from '../common/http/operation.decorator.js';
import { presentCursorPage } from '../common/pagination/cursor-page.js';
import { SuccessDto } from '../projects/dto/project.dto.js';
import type { ProjectRef } from '../projects/project.types.js';
import {
  BULK_MAX_SUBSCRIBERS,
  BulkUpsertSubscribersDto,
  BulkUpsertSubscribersResponseDto,
} from './dto/bulk-subscribers.dto.js';
import {
  ListSubscribersQueryDto,
  SubscriberDto,
  SubscriberListDto,
  UpsertSubscriberDto,
  UpsertSubscriberResponseDto,
} from './dto/subscriber.dto.js';
import { SubscribersBulkService } from './subscribers-bulk.service.js';
import { presentSubscriber, SubscribersService } from './subscribers.service.js';

@ProjectController('v1/subscribers', 'Subscribers')
export class SubscribersController {
  constructor(
    private readonly subscribers: SubscribersService,
    private readonly bulk: SubscribersBulkService,
  ) {}

  @Operation('POST', [400, 422], 'Create or update a subscriber (absent fields are kept, data is merged)')
  async upsertSubscriber(
    @CurrentProject() project: ProjectRef,
    @Body() body: UpsertSubscriberDto,
  ): Promise<UpsertSubscriberResponseDto> {
    const created = await this.subscribers.upsert(project.id, body);
    return { success: true, id: body.id, project_id: project.id, created };
  }

  @Operation('POST /bulk', [400, 413, 422], {
    summary: `Create or update up to ${BULK_MAX_SUBSCRIBERS} subscribers in one call; refused items are reported by index, the others written`,
  })
  async bulkUpsertSubscribers(
    @CurrentProject() project: ProjectRef,
    @Body() body: BulkUpsertSubscribersDto,
  ): Promise<BulkUpsertSubscribersResponseDto> {
    return this.bulk.upsert(project.id, body.subscribers);
  }

  @Operation('GET', [400, 422], 'List subscribers, optionally searched, one cursor page at a time')
  async listSubscribers(
    @CurrentProject() project: ProjectRef,
    @Query() query: ListSubscribersQueryDto,
  ): Promise<SubscriberListDto> {
    const page = await this.subscribers.list(project.id, query);
    return { ...presentCursorPage(page, presentSubscriber), offset: page.offset, total: page.total };
  }

  @Operation('GET /:id', [404], 'Get one subscriber')
  async getSubscriber(@CurrentProject() project: ProjectRef, @Param('id') id: string): Promise<SubscriberDto> {
    return presentSubscriber(await this.subscribers.get(project.id, id));
  }

  @Operation('POST /:id/tokens/revoke', [404], {
    summary: 'Revoke every subscriber token of a subscriber (and its stream tickets and open streams)',
    description:
      'Subscriber tokens (POST /v1/auth/subscriber-token) carry the subscriber’s token version; this gives the subscriber a new one, so every token ' +
      'minted before stops working at once in this process and within milliseconds in the others (AUTH_KEY_CACHE_MS at worst), unused stream ' +
      'tickets are refused and open inbox streams opened with them are ended. Tokens minted afterwards work. Deleting the subscriber, or the project, ' +
      'ends its tokens as well.',
  })
  async revokeSubscriberTokens(@CurrentProject() project: ProjectRef, @Param('id') id: string): Promise<SuccessDto> {
    await this.subscribers.revokeTokens(project.id, id);
    return { success: true };
  }

  @Operation('DELETE /:id', [404], 'Delete a subscriber and everything attached to them')
  async deleteSubscriber(@CurrentProject() project: ProjectRef, @Param('id') id: string): Promise<SuccessDto> {
    await this.subscribers.delete(project.id, id);
    return { success: true };
  }
}
