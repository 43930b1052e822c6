import { Param, Query } from '@nestjs/common';
import { AdminController, CurrentCaller } from '../projects/auth/auth.decorators.js';
import type { OperatorRole } from '../projects/auth/admin-auth.guard.js';
import { Operation } from '../common/http/operation.decorator.js';
import { ProjectsService } from '../projects/projects.service.js';
import { ListSubscribersQueryDto, SubscriberDto, SubscriberListDto } from './dto/subscriber.dto.js';
import { operatorAccess, presentSubscriberToOperator } from './operator-view.js';
import { SubscribersService } from './subscribers.service.js';

type Caller = { operator: OperatorRole | null };

/** Any project's subscribers for operators (`/v1/admin/projects/:id/subscribers`), read-only. */
@AdminController('v1/admin/projects/:id/subscribers', 'Admin: subscribers', { readers: true })
export class AdminSubscribersController {
  constructor(
    private readonly subscribers: SubscribersService,
    private readonly projects: ProjectsService,
  ) {}

  @Operation('GET', [400, 404, 422], {
    summary: 'A project’s subscribers, optionally searched, one cursor page at a time (email and phone masked)',
    description:
      'The read-only key (and a read-only console session) gets each `data` withheld: `{}`, with its keys in `withheld_data_keys`.',
  })
  async adminListSubscribers(
    @Param('id') projectId: string,
    @Query() query: ListSubscribersQueryDto,
    @CurrentCaller() caller: Caller,
  ): Promise<SubscriberListDto> {
    await this.projects.get(projectId);
    const page = await this.subscribers.list(projectId, query);
    const access = operatorAccess(caller.operator);
    return {
      items: page.items.map((s) => presentSubscriberToOperator(s, access)),
      next_cursor: page.nextCursor,
      limit: page.limit,
    };
  }

  @Operation('GET /:subscriber_id', [404], {
    summary: 'One of a project’s subscribers (email and phone masked)',
    description:
      'The read-only key (and a read-only console session) gets `data` withheld: `{}`, with its keys in `withheld_data_keys`.',
  })
  async adminGetSubscriber(
    @Param('id') projectId: string,
    @Param('subscriber_id') id: string,
    @CurrentCaller() caller: Caller,
  ): Promise<SubscriberDto> {
    await this.projects.get(projectId);
    return presentSubscriberToOperator(await this.subscribers.get(projectId, id), operatorAccess(caller.operator));
  }
}
