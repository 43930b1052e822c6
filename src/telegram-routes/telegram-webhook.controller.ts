import { Body, Controller, Headers, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Operation } from '../common/http/operation.decorator.js';
import { BodyLimit } from '../common/http/body-limit.js';
import { TelegramWebhookResponseDto, WebhookPathDto } from './dto/telegram-route.dto.js';
import { TelegramLinksService } from './telegram-links.service.js';

/**
 * Telegram's updates for the owners' bots (public: Telegram calls it). Each bot's webhook URL
 * ends with its connection id, and every update must carry the secret notifyd gave setWebhook.
 */
/** A Telegram update (a message of at most 4 096 characters and its metadata) is far below this; the route is public. */
const TELEGRAM_UPDATE_MAX_BYTES = 256 * 1024;

@ApiTags('Telegram routes')
@Controller('v1/telegram/webhooks')
export class TelegramWebhookController {
  constructor(private readonly links: TelegramLinksService) {}

  @Operation('POST /:connection_id', [401, 404, 503], {
    summary: "Updates from an owner's bot (Telegram calls it): /start <token> pairs the chat",
    description:
      'X-Telegram-Bot-Api-Secret-Token must equal the secret set with the webhook (401 otherwise); an unknown connection is 404; 503 without NOTIFYD_SECRET_KEY. Other updates are acknowledged.',
  })
  @BodyLimit(TELEGRAM_UPDATE_MAX_BYTES)
  async telegramWebhook(
    @Param() path: WebhookPathDto,
    @Headers('x-telegram-bot-api-secret-token') secret: string | undefined,
    // Telegram's Update has many fields; only message.text and message.chat are read.
    @Body() update: Record<string, unknown>,
  ): Promise<TelegramWebhookResponseDto> {
    return this.links.receive(path.connection_id, secret, update);
  }
}
