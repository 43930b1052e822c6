import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { ProviderWebhookResponseDto } from './dto/provider-webhook.dto.js';
import type { ProviderEvent } from './provider-event.js';
import { ProviderEvidenceService } from './provider-evidence.service.js';
import { parseJsonBody, understood, verified } from './webhook-request.js';

/**
 * The base of the controllers whose provider posts its events as signed JSON (Resend, Postmark,
 * SendGrid, WhatsApp). Their handlers end in `record`, which keeps the order every one of them
 * must follow: verify the raw body, only then parse it, read it into events, apply them.
 */
@Injectable()
export abstract class JsonEventsWebhook {
  constructor(
    @Inject(APP_CONFIG) protected readonly config: AppConfig,
    private readonly evidence: ProviderEvidenceService,
  ) {}

  /**
   * `verify` refuses a forged body (401); what it returns (Resend: the svix id) goes to `read`
   * with the parsed body. A malformed body, or one that is not the provider's shape, is a 400.
   */
  protected async record<Proof>(
    provider: string,
    raw: Buffer,
    verify: () => Proof,
    read: (body: unknown, proof: Awaited<Proof>) => ProviderEvent | ProviderEvent[],
  ): Promise<ProviderWebhookResponseDto> {
    const proof = await verified(provider, verify);
    const body = parseJsonBody(raw, provider);
    const events = understood(provider, () => read(body, proof));
    return { success: true, ...(await this.evidence.apply(Array.isArray(events) ? events : [events])) };
  }
}
