import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Agent } from 'node:https';
import type WebPush from 'web-push';
import type { AppConfig } from '../../../config/app-config.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import { headerLookup } from '../../http-outcome.js';
import { ProviderError } from '../../provider-error.js';
import { OutboundGuard } from '../../../common/ssrf/outbound-guard.js';
import { UnsafeUrlError } from '../../../common/ssrf/unsafe-url.error.js';
import type { PushTokenRow } from '../../../domain/push-token.types.js';
import type { DeviceOutcome, PlatformSender } from '../push-device.js';
import type { PushNotification } from '../push-notification.js';
import { assertWebPushEndpoint } from '../../../common/ssrf/web-push-endpoint-policy.js';
import { classifyWebPushRefusal } from './web-push-errors.js';

/** The Topic header: at most 32 characters of the URL-safe base64 alphabet (RFC 8030 §5.4). */
const TOPIC = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Web Push with VAPID (RFC 8030, 8291, 8292) through the `web-push` library: the payload is
 * encrypted (aes128gcm) for the subscription's keys and signed with the instance's VAPID key.
 * Endpoints were supplied by browsers, so each one is checked again (https, allow-listed push
 * service, no private IP literal) and connected through the SSRF guard's agent, which checks
 * every address the host resolves to; the library never follows redirects. The library is
 * imported on the first send, so a process without web push configured never loads it.
 */
@Injectable()
export class WebPushSender implements PlatformSender, OnModuleDestroy {
  readonly platform = 'web' as const;
  readonly configureHint = 'VAPID_PRIVATE_KEY and VAPID_SUBJECT';
  private agent: Agent | undefined;
  /** The web-push module, once the first send has loaded it. */
  private lib: typeof WebPush | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly guard: OutboundGuard,
  ) {}

  get configured(): boolean {
    return this.config.pushProviders.webPush !== undefined;
  }

  /** Kept-alive sockets to push services must not hold the process open at shutdown. */
  onModuleDestroy(): void {
    this.agent?.destroy();
  }

  async send(device: PushTokenRow, n: PushNotification): Promise<DeviceOutcome> {
    const vapid = this.config.pushProviders.webPush!;
    try {
      assertWebPushEndpoint(device.endpoint ?? device.token, this.guard.policy, this.config.pushProviders.webPushHosts);
    } catch (err) {
      if (err instanceof UnsafeUrlError)
        return {
          ok: false,
          error: ProviderError.permanent(`web push endpoint refused before connecting: ${err.message}`),
        };
      throw err;
    }
    const payload = JSON.stringify({
      title: n.title,
      body: n.body,
      url: n.url ?? '/',
      ...(n.options.icon ? { icon: n.options.icon } : {}),
      ...(n.options.image ? { image: n.options.image } : {}),
      ...(n.options.badge !== undefined ? { badge: n.options.badge } : {}),
      ...(n.options.thread_id ? { tag: n.options.thread_id } : {}),
      data: n.data,
    });
    try {
      const webpush = (this.lib ??= (await import('web-push')).default);
      const res = await webpush.sendNotification(
        { endpoint: device.endpoint!, keys: { p256dh: device.p256dh!, auth: device.auth! } },
        payload,
        {
          vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
          ...(n.ttlSecs !== undefined ? { TTL: n.ttlSecs } : {}),
          urgency: n.urgency === 'normal' ? 'normal' : n.urgency,
          ...(n.options.collapse_id && TOPIC.test(n.options.collapse_id) ? { topic: n.options.collapse_id } : {}),
          timeout: this.config.outbound.timeoutMs,
          agent: this.httpsAgent(),
        },
      );
      // RFC 8030 §5: the Location header names the push message resource.
      const location = headerLookup(res.headers as Record<string, string>)('location');
      return { ok: true, id: location ?? null };
    } catch (err) {
      return { ok: false, error: this.classify(err) };
    }
  }

  private classify(err: unknown): ProviderError {
    if (this.lib && err instanceof this.lib.WebPushError) {
      return classifyWebPushRefusal(
        err.statusCode,
        headerLookup((err.headers ?? {}) as Record<string, string>),
        err.body ?? '',
      );
    }
    if (err instanceof UnsafeUrlError)
      return ProviderError.permanent(`web push endpoint refused before connecting: ${err.message}`);
    const e = err as NodeJS.ErrnoException;
    // Never the endpoint in the message: it is a capability URL (whoever has it can push).
    return ProviderError.transient(`web push service unreachable: ${e.code ?? e.message ?? String(err)}`);
  }

  private httpsAgent(): Agent {
    this.agent ??= this.guard.httpsAgent(this.config.pushProviders.ca ? { ca: this.config.pushProviders.ca } : {});
    return this.agent;
  }
}
