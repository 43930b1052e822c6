import { Body, Param, Query } from '@nestjs/common';
import { AdminController, CurrentOperator, ReaderAllowed } from '../projects/auth/auth.decorators.js';
import { Operation } from '../common/http/operation.decorator.js';
import type { Actor } from '../domain/actor.js';
import { ProjectsService } from '../projects/projects.service.js';
import {
  AdminCreateWebhookDto,
  AdminListWebhooksQueryDto,
  CreateWebhookResponseDto,
  DeleteWebhookResponseDto,
  DeliveryListDto,
  DeliveryResponseDto,
  ListDeliveriesQueryDto,
  UpdateWebhookDto,
  WebhookListDto,
  WebhookResponseDto,
} from './dto/webhook.dto.js';
import { deliveryPage } from './delivery-page.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { presentCreatedWebhook, presentDelivery, presentWebhook } from './webhook.presenter.js';

/** notifyd's admin-managed webhooks (`/v1/admin/webhooks`), across projects. */
@AdminController('v1/admin/webhooks', 'Admin: webhooks')
export class AdminWebhooksController {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly projects: ProjectsService,
  ) {}

  @Operation('POST', [422, 503], {
    status: 201,
    summary: 'Register a webhook endpoint for a project; the secret is shown once',
  })
  async adminCreateWebhook(
    @Body() body: AdminCreateWebhookDto,
    @CurrentOperator() by: Actor,
  ): Promise<CreateWebhookResponseDto> {
    await this.projects.getNamed(body.project_id);
    return presentCreatedWebhook(
      await this.endpoints.create(body.project_id, body, by),
      'Store the secret now: it cannot be shown again.',
    );
  }

  @Operation('GET', [422], 'List webhook endpoints of every project (filter by project or state)')
  @ReaderAllowed()
  async adminListWebhooks(@Query() query: AdminListWebhooksQueryDto): Promise<WebhookListDto> {
    const list = (await this.endpoints.list(query.project_id ?? null, query.enabled)).map(presentWebhook);
    return { webhooks: list, count: list.length };
  }

  @Operation('PATCH /:id', [404, 422], 'Change or re-enable any project’s webhook endpoint')
  async adminUpdateWebhook(
    @Param('id') id: string,
    @Body() body: UpdateWebhookDto,
    @CurrentOperator() by: Actor,
  ): Promise<WebhookResponseDto> {
    return { success: true, webhook: presentWebhook(await this.endpoints.update(id, null, body, by)) };
  }

  @Operation('DELETE /:id', [404], 'Delete any project’s webhook endpoint and its delivery log')
  async adminDeleteWebhook(@Param('id') id: string, @CurrentOperator() by: Actor): Promise<DeleteWebhookResponseDto> {
    await this.endpoints.delete(id, null, by);
    return { success: true, id };
  }

  @Operation('GET /:id/deliveries', [400, 404], {
    summary: 'Any project’s endpoint’s delivery log, newest first: status, attempts, answers, next retry',
  })
  @ReaderAllowed()
  async adminListWebhookDeliveries(
    @Param('id') id: string,
    @Query() query: ListDeliveriesQueryDto,
  ): Promise<DeliveryListDto> {
    return deliveryPage(this.endpoints, id, null, query);
  }

  @Operation('POST /:id/deliveries/:delivery_id/redeliver', [404, 409], {
    summary: 'Queue any project’s failed or cancelled delivery again (same webhook-id, fresh attempts)',
  })
  async adminRedeliverWebhook(
    @Param('id') id: string,
    @Param('delivery_id') deliveryId: string,
    @CurrentOperator() by: Actor,
  ): Promise<DeliveryResponseDto> {
    return { success: true, delivery: presentDelivery(await this.endpoints.redeliver(id, deliveryId, null, by)) };
  }
}
