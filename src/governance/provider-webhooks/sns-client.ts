import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { snsUrlAllowed } from './verifiers/sns-signature.js';
import { VerificationError } from './verifiers/verification.js';

const MAX_CACHED = 20;
const MAX_CERT_BYTES = 64 * 1024;

/**
 * The two calls SNS messages lead to: fetching a signing certificate (cached: SNS rotates them
 * rarely) and confirming a subscription. Both go only to URLs snsUrlAllowed accepts, without
 * following redirects.
 */
@Injectable()
export class SnsClient {
  private readonly certificates = new Map<string, string>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async certificate(url: string): Promise<string> {
    const cached = this.certificates.get(url);
    if (cached) return cached;
    if (!snsUrlAllowed(url, 'certificate', this.config.providerWebhooks.ses.testEndpointBase)) {
      throw new VerificationError('SigningCertURL is not an https URL on sns.<region>.amazonaws.com ending in .pem');
    }
    const res = await this.get(url);
    const pem = await res.text();
    if (!res.ok || pem.length > MAX_CERT_BYTES || !pem.includes('BEGIN CERTIFICATE'))
      throw new VerificationError(`could not fetch the signing certificate (HTTP ${res.status})`);
    if (this.certificates.size >= MAX_CACHED) this.certificates.delete(this.certificates.keys().next().value!);
    this.certificates.set(url, pem);
    return pem;
  }

  /** Visits SubscribeURL; true when SNS answered 200. */
  async confirmSubscription(url: string): Promise<boolean> {
    if (!snsUrlAllowed(url, 'subscribe', this.config.providerWebhooks.ses.testEndpointBase)) return false;
    const res = await this.get(url);
    await res.body?.cancel();
    return res.ok;
  }

  private get(url: string): Promise<Response> {
    return fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(this.config.outbound.timeoutMs) });
  }
}
