import type { DeliveryListDto, ListDeliveriesQueryDto } from './dto/webhook.dto.js';
import type { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { presentDelivery } from './webhook.presenter.js';

/**
 * A page of an endpoint's delivery log, newest first, as both logs (project key and operators)
 * answer it; `projectId` null: an operator's read, any project's endpoint.
 */
export async function deliveryPage(
  endpoints: WebhookEndpointsService,
  endpointId: string,
  projectId: string | null,
  query: ListDeliveriesQueryDto,
): Promise<DeliveryListDto> {
  const limit = query.limit ?? 50;
  const { items, nextCursor } = await endpoints.deliveries(endpointId, projectId, limit, query.cursor, query.status);
  return { items: items.map(presentDelivery), next_cursor: nextCursor, limit };
}
