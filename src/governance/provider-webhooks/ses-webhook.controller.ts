import { Inject, Logger } from '@nestjs/common';
import { AuditService } from '../../audit/audit.service.js';
import { ApiError } from '../../common/errors/api-error.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { ProviderWebhookResponseDto } from './dto/provider-webhook.dto.js';
import { ProviderEvidenceService } from './provider-evidence.service.js';
import { sesEvent } from './providers/ses.events.js';
import { SnsClient } from './sns-client.js';
import { snsMessage, verifySnsSignature, type SnsMessage } from './verifiers/sns-signature.js';
import { parseJsonBody, requireSecret, verified, understood } from './webhook-request.js';
import { ProviderWebhookController, Signed, SignedCallback, type SignedRequest } from './webhook-routes.js';

@ProviderWebhookController()
export class SesWebhookController {
  private readonly logger = new Logger(SesWebhookController.name);
  /** SES_SNS_TOPIC_ARNS: the only topics whose messages are accepted (none: the route is not configured). */
  private readonly topics: readonly string[];

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly evidence: ProviderEvidenceService,
    private readonly sns: SnsClient,
    private readonly audit: AuditService,
  ) {
    this.topics = config.providerWebhooks.ses.topicArns;
  }

  @SignedCallback('POST /ses', [400, 401, 403, 503], {
    summary: 'Amazon SES events through an SNS HTTPS subscription (signature v1/v2, subscription confirmation)',
    description:
      'Accepts only topics listed in SES_SNS_TOPIC_ARNS (403 otherwise). The SNS signature is checked with the certificate at SigningCertURL, which must be https on ' +
      'sns.<region>.amazonaws.com (401 otherwise). A SubscriptionConfirmation is confirmed by visiting its SubscribeURL (same host rule). A Notification carries an SES ' +
      'event (Delivery, Bounce, Complaint, Open, Click…), keyed by the SNS MessageId; Permanent bounces and complaints suppress the recipients they name.',
  })
  async sesWebhook(@Signed() { raw }: SignedRequest): Promise<ProviderWebhookResponseDto> {
    requireSecret(this.topics.length ? this.topics : undefined, 'SES_SNS_TOPIC_ARNS', 'Amazon SES (SNS)');
    const body = parseJsonBody(raw, 'SNS');
    const message = understood('SNS', () => snsMessage(body));
    // Checked before any certificate is fetched: anyone can point an SNS topic of their own here.
    if (!this.topics.includes(message.TopicArn))
      throw ApiError.forbidden(`SNS topic ${message.TopicArn} is not in SES_SNS_TOPIC_ARNS.`);
    const certificate = await verified('SNS', () => this.sns.certificate(message.SigningCertURL));
    verified('SNS', () => verifySnsSignature(message, certificate));

    if (message.Type === 'SubscriptionConfirmation') return this.confirm(message);
    if (message.Type !== 'Notification') return { success: true, recorded: 0, duplicates: 0 };
    const event = understood('SES', () => sesEvent(message.MessageId, JSON.parse(message.Message)));
    return { success: true, ...(await this.evidence.apply([event])) };
  }

  private async confirm(message: SnsMessage): Promise<ProviderWebhookResponseDto> {
    const confirmed = message.SubscribeURL
      ? await this.sns.confirmSubscription(message.SubscribeURL).catch(() => false)
      : false;
    if (!confirmed) {
      // 5xx: SNS retries the confirmation, which may succeed once the network allows it.
      this.logger.warn(`SNS subscription to ${message.TopicArn} could not be confirmed`);
      throw ApiError.unavailable(
        'subscription_not_confirmed',
        'The SNS SubscribeURL could not be visited (it must be https on sns.<region>.amazonaws.com); SNS will retry.',
      );
    }
    await this.audit.record({ actor: 'ses-webhook', action: 'sns.subscription_confirmed', resource: message.TopicArn });
    return { success: true, recorded: 0, duplicates: 0 };
  }
}
