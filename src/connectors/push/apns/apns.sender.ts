import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '../../../config/app-config.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import type { PushTokenRow } from '../../../domain/push-token.types.js';
import { ProviderError } from '../../provider-error.js';
import type { DeviceOutcome, PlatformSender } from '../push-device.js';
import type { PushNotification } from '../push-notification.js';
import { classifyApnsRefusal } from './apns-errors.js';
import { ApnsProviderToken } from './apns-provider-token.js';
import { buildApnsRequest } from './apns-request.js';
import { Http2Session } from './http2-session.js';

/**
 * APNs over HTTP/2 (`node:http2`): one connection per process to api.push.apple.com (or the
 * sandbox, or APNS_BASE_URL), one stream per device, `authorization: bearer <provider token>`.
 * An ExpiredProviderToken answer renews the token and retries once.
 */
@Injectable()
export class ApnsSender implements PlatformSender, OnModuleDestroy {
  readonly platform = 'apns' as const;
  readonly configureHint = 'APNS_KEY_ID, APNS_TEAM_ID, APNS_PRIVATE_KEY and APNS_TOPIC';
  readonly providerToken: ApnsProviderToken | undefined;
  private readonly session: Http2Session | undefined;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const apns = config.pushProviders.apns;
    this.providerToken = apns ? new ApnsProviderToken(apns) : undefined;
    this.session = apns ? new Http2Session(apns.baseUrl, config.pushProviders.ca) : undefined;
  }

  get configured(): boolean {
    return this.config.pushProviders.apns !== undefined;
  }

  onModuleDestroy(): void {
    this.session?.close();
  }

  async send(device: PushTokenRow, n: PushNotification): Promise<DeviceOutcome> {
    const apns = this.config.pushProviders.apns!;
    const request = buildApnsRequest(device.token, apns.topic, n);
    let jwt = await this.providerToken!.get();
    for (let attempt = 1; ; attempt++) {
      let answer;
      try {
        answer = await this.session!.request(
          { ...request.headers, authorization: `bearer ${jwt}` },
          request.body,
          this.config.outbound.timeoutMs,
        );
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        return { ok: false, error: ProviderError.transient(`APNs unreachable: ${e.code ?? e.message}`) };
      }
      if (answer.status === 200) {
        const id = answer.headers['apns-id'];
        return { ok: true, id: typeof id === 'string' ? id : null };
      }
      let reason: string | undefined;
      try {
        reason = (JSON.parse(answer.body) as { reason?: string }).reason;
      } catch {
        reason = undefined;
      }
      if (reason === 'ExpiredProviderToken' && attempt === 1) {
        jwt = await this.providerToken!.renew(jwt);
        continue;
      }
      return { ok: false, error: classifyApnsRefusal(answer.status, reason) };
    }
  }
}
