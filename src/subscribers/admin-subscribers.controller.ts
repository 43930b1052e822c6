import { Param, Query } from '@nestjs/common';
import { AdminController } from '../projects/auth/auth.decorators.js';
import { Operation } from '../common/http/operation.decorator.js';
import { presentCursorPage } from '../common/pagination/cursor-page.js';
import { ExistingProjectPipe } from '../projects/existing-project.pipe.js';
import { ListSubscribersQueryDto, SubscriberDto, SubscriberListDto } from './dto/subscriber.dto.js';
import { CurrentOperatorAccess } from './operator-access.decorator.js';
import { type OperatorAccess, presentSubscriberToOperator } from './operator-view.js';
import { SubscribersService } from './subscribers.service.js';

/** Any project's subscribers for operators (`/v1/admin/projects/:id/subscribers`), read-only. */
@AdminController('v1/admin/projects/:id/subscribers', 'Admin: subscribers', { readers: true })
export class AdminSubscribersController {
  constructor(private readonly subscribers: SubscribersService) {}

  @Operation('GET', [400, 404, 422], {
    summary: 'A project’s subscribers, optionally searched, one cursor page at a time (email and phone masked)',
    description:
      'The read-only key (and a read-only console session) gets each `data` withheld: `{}`, with its keys in `withheld_data_keys`.',
  })
  async adminListSubscribers(
    @Param('id', ExistingProjectPipe) projectId: string,
    @Query() query: ListSubscribersQueryDto,
    @CurrentOperatorAccess() access: OperatorAccess,
  ): Promise<SubscriberListDto> {
    return presentCursorPage(await this.subscribers.list(projectId, query), (s) =>
      presentSubscriberToOperator(s, access),
    );
  }

  @Operation('GET /:subscriber_id', [404], {
    summary: 'One of a project’s subscribers (email and phone masked)',
    description:
      'The read-only key (and a read-only console session) gets `data` withheld: `{}`, with its keys in `withheld_data_keys`.',
  })
  async adminGetSubscriber(
    @Param('id', ExistingProjectPipe) projectId: string,
    @Param('subscriber_id') id: string,
    @CurrentOperatorAccess() access: OperatorAccess,
  ): Promise<SubscriberDto> {
    return presentSubscriberToOperator(await this.subscribers.get(projectId, id), access);
  }
}
