import { Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiQuery } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../common/errors/api-error.js';
import { Operation } from '../../common/http/operation.decorator.js';
import { ProviderWebhookResponseDto } from './dto/provider-webhook.dto.js';
import { JsonEventsWebhook } from './json-events-webhook.js';
import { whatsappEvents } from './providers/whatsapp.events.js';
import { verifyMetaSignature } from './verifiers/meta-signature.js';
import { header, safeEqual } from './verifiers/verification.js';
import { requireSecret } from './webhook-request.js';
import { ProviderWebhookController, Signed, SignedCallback, type SignedRequest } from './webhook-routes.js';

@ProviderWebhookController()
export class WhatsAppWebhookController extends JsonEventsWebhook {
  @Operation('GET /whatsapp', [403, 503], {
    summary: 'Meta webhook verification: echoes hub.challenge when hub.verify_token is WHATSAPP_VERIFY_TOKEN',
  })
  @ApiQuery({ name: 'hub.mode', required: true, example: 'subscribe' })
  @ApiQuery({ name: 'hub.verify_token', required: true })
  @ApiQuery({ name: 'hub.challenge', required: true, example: '1158201444' })
  @ApiOkResponse({
    description: 'The hub.challenge value, as text/plain.',
    content: { 'text/plain': { schema: { type: 'string', example: '1158201444' } } },
  })
  whatsappWebhookChallenge(
    @Query('hub.mode') mode: unknown,
    @Query('hub.verify_token') token: unknown,
    @Query('hub.challenge') challenge: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): string {
    const expected = requireSecret(
      this.config.providerWebhooks.whatsapp.verifyToken,
      'WHATSAPP_VERIFY_TOKEN',
      'WhatsApp',
    );
    if (
      mode !== 'subscribe' ||
      typeof token !== 'string' ||
      !safeEqual(token, expected) ||
      typeof challenge !== 'string' ||
      !/^[\w.-]{1,256}$/.test(challenge)
    ) {
      throw ApiError.forbidden(
        'hub.mode must be subscribe and hub.verify_token must equal WHATSAPP_VERIFY_TOKEN (with a hub.challenge to echo).',
      );
    }
    void reply.type('text/plain; charset=utf-8');
    return challenge;
  }

  @SignedCallback('POST /whatsapp', [400, 401, 503], {
    summary: 'WhatsApp Cloud API status webhooks (delivered, read, failed), X-Hub-Signature-256 verified',
    description:
      'HMAC-SHA256 of the raw body with WHATSAPP_APP_SECRET. One event per `statuses` entry, keyed by (message id, status): delivered → delivered_at, read → opened_at, ' +
      'failed → job bounced (`whatsapp <code>: <title>`); error 131050 (the user stopped marketing messages) suppresses the number for marketing. Other fields are acknowledged.',
  })
  async whatsappWebhook(@Signed() { raw, headers }: SignedRequest): Promise<ProviderWebhookResponseDto> {
    const secret = requireSecret(this.config.providerWebhooks.whatsapp.appSecret, 'WHATSAPP_APP_SECRET', 'WhatsApp');
    return this.record(
      'WhatsApp',
      raw,
      () => verifyMetaSignature(secret, header(headers, 'x-hub-signature-256'), raw),
      whatsappEvents,
    );
  }
}
