import { presentCursorPage } from '../common/pagination/cursor-page.js';
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
  const page = await endpoints.deliveries(endpointId, projectId, query.limit ?? 50, query.cursor, query.status);
  return presentCursorPage(page, presentDelivery);
}
