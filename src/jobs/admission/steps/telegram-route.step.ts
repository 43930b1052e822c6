import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../common/errors/api-error.js';
import { canonicalTelegramChat } from '../../../connectors/chat/chat-ids.js';
import { TelegramRoutesService } from '../../../telegram-routes/telegram-routes.service.js';
import type { AdmissionRequest, Target } from '../admission.types.js';

/**
 * A send naming chat.telegram_route_id (an owner's own bot) is checked at the door: the route
 * must be this project's and have a verified chat, and every Telegram recipient must be that
 * chat. A 422 names the field instead of queuing a job that could only fail. The worker checks
 * again (the route may change or go before the job is sent).
 */
@Injectable()
export class TelegramRouteStep {
  constructor(private readonly routes: TelegramRoutesService) {}

  /** Whether the request's Telegram targets go through an owner's bot (not the instance's). */
  static routed(request: AdmissionRequest): boolean {
    return request.channels.includes('telegram') && request.payload.chat?.telegram_route_id !== undefined;
  }

  async apply(request: AdmissionRequest, targets: readonly Target[]): Promise<void> {
    if (!TelegramRouteStep.routed(request)) return;
    const routeId = request.payload.chat!.telegram_route_id!;
    const route = await this.routes.routeForSend(request.project.id, routeId);
    if (!route)
      throw invalid(
        `chat.telegram_route_id: '${routeId}' is not a Telegram route of this project; POST /v1/telegram/lookup gives the route ids of your owners.`,
      );
    if (!route.address || !route.verified) {
      throw invalid(
        `chat.telegram_route_id: the route of owner '${route.owner}' has no verified chat yet; pair one with POST /v1/telegram/${route.owner}/link (or PUT …/destination).`,
      );
    }
    const other = targets.find(
      (t) => t.channel === 'telegram' && !t.skip && canonicalTelegramChat(t.recipient) !== route.address,
    );
    if (other)
      throw invalid(
        `to: '${other.recipient.slice(0, 40)}' is not the chat of chat.telegram_route_id; send to the address POST /v1/telegram/lookup returns for the owner.`,
      );
  }
}

const invalid = (message: string) => ApiError.unprocessable('validation_failed', message, { details: [message] });
