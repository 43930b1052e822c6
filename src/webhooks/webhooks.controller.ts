import { Body, Param, Query } from '@nestjs/common';
import { ApiKeyActor } from '../projects/auth/api-key-actor.decorator.js';
import { CurrentProject } from '../projects/auth/auth.decorators.js';
import { ProjectController } from '../projects/auth/project-controller.decorator.js';
import { Operation } from '../common/http/operation.decorator.js';
import type { ProjectRef } from '../projects/project.types.js';
import type { Actor } from '../domain/actor.js';
import {
  CreateWebhookDto,
  CreateWebhookResponseDto,
  DeleteWebhookResponseDto,
  DeliveryListDto,
  DeliveryResponseDto,
  ListDeliveriesQueryDto,
  RotateWebhookSecretDto,
  RotateWebhookSecretResponseDto,
  UpdateWebhookDto,
  WebhookListDto,
  WebhookResponseDto,
} from './dto/webhook.dto.js';
import { deliveryPage } from './delivery-page.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { presentCreatedWebhook, presentDelivery, presentWebhook } from './webhook.presenter.js';

@ProjectController('v1/webhooks', 'Webhooks')
export class WebhooksController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Operation('POST', [400, 422, 503], {
    status: 201,
    summary: 'Register an endpoint for signed event deliveries; the secret is shown once',
  })
  async createWebhook(
    @CurrentProject() project: ProjectRef,
    @Body() body: CreateWebhookDto,
    @ApiKeyActor() by: Actor,
  ): Promise<CreateWebhookResponseDto> {
    return presentCreatedWebhook(
      await this.endpoints.create(project.id, body, by),
      'Store the secret now: it cannot be shown again (rotate it with POST …/rotate-secret).',
    );
  }

  @Operation('GET', [400], 'List this project’s webhook endpoints')
  async listWebhooks(@CurrentProject() project: ProjectRef): Promise<WebhookListDto> {
    const list = (await this.endpoints.list(project.id)).map(presentWebhook);
    return { webhooks: list, count: list.length };
  }

  @Operation('GET /:id', [404], 'Get one webhook endpoint (state, health, secret hint)')
  async getWebhook(@CurrentProject() project: ProjectRef, @Param('id') id: string): Promise<WebhookResponseDto> {
    return { success: true, webhook: presentWebhook(await this.endpoints.get(id, project.id)) };
  }

  @Operation('PATCH /:id', [404, 422], 'Change an endpoint’s URL, events or description, or disable / re-enable it')
  async updateWebhook(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
    @Body() body: UpdateWebhookDto,
    @ApiKeyActor() by: Actor,
  ): Promise<WebhookResponseDto> {
    return { success: true, webhook: presentWebhook(await this.endpoints.update(id, project.id, body, by)) };
  }

  @Operation('DELETE /:id', [404], 'Delete an endpoint and its delivery log')
  async deleteWebhook(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
    @ApiKeyActor() by: Actor,
  ): Promise<DeleteWebhookResponseDto> {
    await this.endpoints.delete(id, project.id, by);
    return { success: true, id };
  }

  @Operation('POST /:id/rotate-secret', [404, 422, 503], {
    summary: 'New signing secret (shown once); the old one keeps signing during the overlap',
  })
  async rotateWebhookSecret(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
    @Body() body: RotateWebhookSecretDto,
    @ApiKeyActor() by: Actor,
  ): Promise<RotateWebhookSecretResponseDto> {
    const { endpoint, secret } = await this.endpoints.rotateSecret(id, project.id, body.overlap_seconds, by);
    const view = presentWebhook(endpoint);
    return { success: true, secret, previous_secret_valid_until: view.previous_secret_expires_at, webhook: view };
  }

  @Operation('GET /:id/deliveries', [400, 404], {
    summary: 'The endpoint’s delivery log, newest first: status, attempts, answers, next retry',
  })
  async listWebhookDeliveries(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
    @Query() query: ListDeliveriesQueryDto,
  ): Promise<DeliveryListDto> {
    return deliveryPage(this.endpoints, id, project.id, query);
  }

  @Operation('GET /:id/deliveries/:delivery_id', [404], 'One delivery with its payload and every attempt')
  async getWebhookDelivery(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
    @Param('delivery_id') deliveryId: string,
  ): Promise<DeliveryResponseDto> {
    return { success: true, delivery: presentDelivery(await this.endpoints.delivery(id, deliveryId, project.id)) };
  }

  @Operation('POST /:id/deliveries/:delivery_id/redeliver', [404, 409], {
    summary: 'Queue a failed or cancelled delivery again (same webhook-id, fresh attempts)',
  })
  async redeliverWebhook(
    @CurrentProject() project: ProjectRef,
    @Param('id') id: string,
    @Param('delivery_id') deliveryId: string,
    @ApiKeyActor() by: Actor,
  ): Promise<DeliveryResponseDto> {
    return {
      success: true,
      delivery: presentDelivery(await this.endpoints.redeliver(id, deliveryId, project.id, by)),
    };
  }
}
