import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { VERSION } from '../../common/version.js';
import { type Resolver, systemResolver } from '../../common/ssrf/guarded-lookup.js';
import { safeFetch } from '../../common/ssrf/safe-fetch.js';
import { UnsafeUrlError } from '../../common/ssrf/unsafe-url.error.js';
import { type AttemptOutcome, classifyResponse } from './webhook-outcome.js';

/** What is kept of a receiver's answer body for the delivery log. */
const BODY_SNIPPET_BYTES = 300;

/**
 * One HTTP attempt of a delivery through the SSRF guard (src/common/ssrf): scheme and
 * IP-literal check before anything is sent, every resolved address checked at connect time,
 * redirects never followed. A refused target never gets a connection and disables its endpoint.
 */
@Injectable()
export class WebhookSender {
  private resolver: Resolver = systemResolver;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Host name resolution for the connect-time check (tests inject a rebinding resolver). */
  useResolver(resolver: Resolver): void {
    this.resolver = resolver;
  }

  get currentResolver(): Resolver {
    return this.resolver;
  }

  async post(url: string, body: string, headers: Record<string, string>): Promise<AttemptOutcome> {
    try {
      const res = await safeFetch(
        url,
        {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'user-agent': `notifyd-webhooks/${VERSION}`, ...headers },
        },
        {
          httpsOnly: this.config.outbound.httpsOnly,
          allowLoopback: this.config.outbound.allowLoopback,
          timeoutMs: this.config.webhooks.timeoutMs,
          resolver: this.resolver === systemResolver ? undefined : this.resolver,
        },
      );
      const snippet = await readSnippet(res.body);
      return classifyResponse(res.status, res.headers.get('retry-after'), snippet, res.headers.get('location'));
    } catch (err) {
      if (err instanceof UnsafeUrlError)
        return { kind: 'disable', statusCode: null, error: `refused before connecting: ${err.message}` };
      const name = (err as Error)?.name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        return {
          kind: 'retry',
          statusCode: null,
          error: `no answer within WEBHOOK_TIMEOUT_MS (${this.config.webhooks.timeoutMs} ms)`,
        };
      }
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      return {
        kind: 'retry',
        statusCode: null,
        error: `network error: ${cause?.code ?? cause?.message ?? (err as Error).message}`,
      };
    }
  }
}

/** The first bytes of an answer, single-line; the rest is discarded unread. */
async function readSnippet(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < BODY_SNIPPET_BYTES) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // A body cut short is still an answer; its status decides.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, BODY_SNIPPET_BYTES).replace(/\s+/g, ' ').trim();
}
