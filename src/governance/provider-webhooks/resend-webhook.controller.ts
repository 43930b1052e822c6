import { ProviderWebhookResponseDto } from './dto/provider-webhook.dto.js';
import { JsonEventsWebhook } from './json-events-webhook.js';
import { resendEvent } from './providers/resend.events.js';
import { verifySvix } from './verifiers/svix.js';
import { requireSecret } from './webhook-request.js';
import { ProviderWebhookController, Signed, SignedCallback, type SignedRequest } from './webhook-routes.js';

@ProviderWebhookController()
export class ResendWebhookController extends JsonEventsWebhook {
  @SignedCallback('POST /resend', [400, 401, 503], {
    summary: 'Resend events in (delivered, bounced, complained, opened, clicked), Svix-signed',
    description:
      'Verifies `svix-id`/`svix-timestamp`/`svix-signature` over the raw body with RESEND_WEBHOOK_SECRET (±PROVIDER_WEBHOOK_TOLERANCE_SECS), ' +
      'records the event once per svix-id and applies it to the job whose provider message id is `data.email_id` (the `notifyd_job_id` tag picks among jobs sharing it). ' +
      'Hard bounces and complaints suppress the addresses in `data.to`. A replay answers 200 and changes nothing.',
  })
  async resendWebhook(@Signed() { raw, headers }: SignedRequest): Promise<ProviderWebhookResponseDto> {
    const secret = requireSecret(this.config.providerWebhooks.resendSecret, 'RESEND_WEBHOOK_SECRET', 'Resend');
    return this.record(
      'Resend',
      raw,
      () => verifySvix(secret, headers, raw, { toleranceSecs: this.config.providerWebhooks.toleranceSecs }),
      (body, { id }) => resendEvent(id, body),
    );
  }
}
