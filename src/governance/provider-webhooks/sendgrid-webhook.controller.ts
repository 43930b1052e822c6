import { ProviderWebhookResponseDto } from './dto/provider-webhook.dto.js';
import { JsonEventsWebhook } from './json-events-webhook.js';
import { sendgridEvents } from './providers/sendgrid.events.js';
import { verifySendgridSignature } from './verifiers/sendgrid-ecdsa.js';
import { requireSecret } from './webhook-request.js';
import { ProviderWebhookController, Signed, SignedCallback, type SignedRequest } from './webhook-routes.js';

@ProviderWebhookController()
export class SendgridWebhookController extends JsonEventsWebhook {
  @SignedCallback('POST /sendgrid', [400, 401, 503], {
    summary: 'SendGrid signed Event Webhook (delivered, bounce, spamreport, open, click, unsubscribe), ECDSA verified',
    description:
      'Verifies `X-Twilio-Email-Event-Webhook-Signature` (ECDSA P-256 over the `…-Timestamp` value and the raw body) with SENDGRID_WEBHOOK_PUBLIC_KEY. One event per ' +
      'array entry, keyed by `sg_event_id`; the job from `sg_message_id` (the `notifyd_job_id` custom arg picks among the jobs of one batch call). Hard bounces and spam reports suppress the address; unsubscribes suppress marketing email.',
  })
  async sendgridWebhook(@Signed() { raw, headers }: SignedRequest): Promise<ProviderWebhookResponseDto> {
    const key = requireSecret(
      this.config.providerWebhooks.sendgridPublicKey,
      'SENDGRID_WEBHOOK_PUBLIC_KEY',
      'SendGrid',
    );
    return this.record(
      'SendGrid',
      raw,
      () => verifySendgridSignature(key, headers, raw, { toleranceSecs: this.config.providerWebhooks.toleranceSecs }),
      sendgridEvents,
    );
  }
}
