import { Inject, Injectable } from '@nestjs/common';
import type { Agent as HttpsAgent } from 'node:https';
import type { RequestInit, Response } from 'undici';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { OutboundPolicy } from './address-policy.js';
import { assertPublicHttpUrl } from './public-url.js';
import { guardedHttpsAgent, safeFetch } from './safe-fetch.js';

/**
 * The SSRF guard bound to this instance's policy (OUTBOUND_HTTPS_ONLY, OUTBOUND_ALLOW_LOOPBACK,
 * OUTBOUND_TIMEOUT_MS). Use it for every URL a user supplied: check it when it is registered
 * (`assertUrl`, a clear 422 for the caller) and fetch it through `fetch` (checked again, at
 * connect time, with redirects refused).
 */
@Injectable()
export class OutboundGuard {
  readonly policy: OutboundPolicy;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.policy = { httpsOnly: config.outbound.httpsOnly, allowLoopback: config.outbound.allowLoopback };
  }

  /** Throws UnsafeUrlError when the URL may not be contacted; returns it parsed. */
  assertUrl(url: string | URL): URL {
    return assertPublicHttpUrl(url, this.policy);
  }

  fetch(
    url: string | URL,
    init: Omit<RequestInit, 'redirect' | 'dispatcher'> = {},
    extra: { ca?: string | Buffer } = {},
  ): Promise<Response> {
    return safeFetch(url, init, { ...this.policy, timeoutMs: this.config.outbound.timeoutMs, ...extra });
  }

  /** For libraries that take an https.Agent (web-push); call assertUrl first. */
  httpsAgent(extra: { ca?: string | Buffer } = {}): HttpsAgent {
    return guardedHttpsAgent({ ...this.policy, ...extra });
  }
}
