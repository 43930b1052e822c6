import { ProviderWebhookResponseDto } from './dto/provider-webhook.dto.js';
import { JsonEventsWebhook } from './json-events-webhook.js';
import { postmarkEvent } from './providers/postmark.events.js';
import { verifyBasicAuth } from './verifiers/basic-auth.js';
import { requireSecret } from './webhook-request.js';
import { ProviderWebhookController, Signed, SignedCallback, type SignedRequest } from './webhook-routes.js';

@ProviderWebhookController()
export class PostmarkWebhookController extends JsonEventsWebhook {
  @SignedCallback('POST /postmark', [400, 401, 503], {
    summary: 'Postmark events in (Delivery, Bounce, SpamComplaint, Open, Click), Basic-auth protected',
    description:
      'Configure the webhook URL in Postmark as `https://USER:PASSWORD@<host>/webhooks/postmark` with POSTMARK_WEBHOOK_USERNAME and POSTMARK_WEBHOOK_PASSWORD. ' +
      'Events are deduplicated by (MessageID, RecordType) and applied to the job whose message id is `MessageID` (`Metadata.notifyd_job_id` picks among jobs sharing it). ' +
      'Hard bounces (HardBounce, BadEmailAddress, an address Postmark deactivated) and spam complaints suppress the recipient.',
  })
  async postmarkWebhook(@Signed() { raw, headers }: SignedRequest): Promise<ProviderWebhookResponseDto> {
    const { username, password } = this.config.providerWebhooks.postmark;
    const user = requireSecret(username, 'POSTMARK_WEBHOOK_USERNAME', 'Postmark');
    const pass = requireSecret(password, 'POSTMARK_WEBHOOK_PASSWORD', 'Postmark');
    return this.record('Postmark', raw, () => verifyBasicAuth(headers, user, pass), postmarkEvent);
  }
}
