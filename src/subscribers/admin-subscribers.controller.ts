import { Param, Query } from '@nestjs/common';
import { AdminController } from '../projects/auth/auth.decorators.js';
import { Operation } from '../common/http/operation.decorator.js';
import { maskEmail, maskPhone } from '../common/pii/mask.js';
import { ProjectsService } from '../projects/projects.service.js';
import { ListSubscribersQueryDto, SubscriberDto, SubscriberListDto } from './dto/subscriber.dto.js';
import type { SubscriberRow } from './subscriber.types.js';
import { presentSubscriber, SubscribersService } from './subscribers.service.js';

/** A subscriber as operators see it: email and phone masked, as the admin job search masks recipients. */
function presentMasked(s: SubscriberRow): SubscriberDto {
  const view = presentSubscriber(s);
  return {
    ...view,
    email: view.email ? maskEmail(view.email) : view.email,
    phone: view.phone ? maskPhone(view.phone) : view.phone,
  };
}

/** Any project's subscribers for operators (`/v1/admin/projects/:id/subscribers`), read-only. */
@AdminController('v1/admin/projects/:id/subscribers', 'Admin: subscribers', { readers: true })
export class AdminSubscribersController {
  constructor(
    private readonly subscribers: SubscribersService,
    private readonly projects: ProjectsService,
  ) {}

  @Operation('GET', [400, 404, 422], {
    summary: 'A project’s subscribers, optionally searched, one cursor page at a time (email and phone masked)',
  })
  async adminListSubscribers(
    @Param('id') projectId: string,
    @Query() query: ListSubscribersQueryDto,
  ): Promise<SubscriberListDto> {
    await this.projects.get(projectId);
    const page = await this.subscribers.list(projectId, query);
    return { items: page.items.map(presentMasked), next_cursor: page.nextCursor, limit: page.limit };
  }

  @Operation('GET /:subscriber_id', [404], 'One of a project’s subscribers (email and phone masked)')
  async adminGetSubscriber(@Param('id') projectId: string, @Param('subscriber_id') id: string): Promise<SubscriberDto> {
    await this.projects.get(projectId);
    return presentMasked(await this.subscribers.get(projectId, id));
  }
}
