import { Inject } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { ProviderWebhookResponseDto } from './dto/provider-webhook.dto.js';
import { ProviderEvidenceService } from './provider-evidence.service.js';
import { postmarkEvent } from './providers/postmark.events.js';
import { verifyBasicAuth } from './verifiers/basic-auth.js';
import { parseJsonBody, requireSecret, verified, understood } from './webhook-request.js';
import { ProviderWebhookController, Signed, SignedCallback, type SignedRequest } from './webhook-routes.js';

@ProviderWebhookController()
export class PostmarkWebhookController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly evidence: ProviderEvidenceService,
  ) {}

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
    verified('Postmark', () => verifyBasicAuth(headers, user, pass));
    const body = parseJsonBody(raw, 'Postmark');
    const event = understood('Postmark', () => postmarkEvent(body));
    return { success: true, ...(await this.evidence.apply([event])) };
  }
}
