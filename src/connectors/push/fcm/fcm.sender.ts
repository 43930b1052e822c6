import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Agent } from 'undici';
import type { AppConfig } from '../../../config/app-config.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import type { PushTokenRow } from '../../../domain/push-token.types.js';
import { type Fetcher, postJson } from '../../json-http.js';
import { ProviderError } from '../../provider-error.js';
import { undici } from '../../../common/undici.js';
import type { DeviceOutcome, PlatformSender } from '../push-device.js';
import type { PushNotification } from '../push-notification.js';
import { FcmAccessTokens } from './fcm-access-token.js';
import { classifyFcmRefusal, fcmErrorCode } from './fcm-errors.js';
import { buildFcmMessage } from './fcm-message.js';

/**
 * FCM HTTP v1: `POST {FCM_API_BASE}/v1/projects/{id}/messages:send`, one device token per
 * request (v1 has no batch endpoint), with an OAuth2 access token minted from the service
 * account and cached. A 401 UNAUTHENTICATED (token revoked or expired early) renews the token
 * and retries once. Base URLs are the operator's, not users', so they are not SSRF-guarded.
 */
@Injectable()
export class FcmSender implements PlatformSender, OnModuleDestroy {
  readonly platform = 'fcm' as const;
  readonly configureHint = 'FCM_SERVICE_ACCOUNT_FILE';
  readonly tokens: FcmAccessTokens | undefined;
  private readonly fetcher: Fetcher;
  /** Made at the first request (undici is imported then). */
  private dispatcher: Agent | undefined;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const push = config.pushProviders;
    // HTTP/2 when the server offers it (FCM does), with a bounded pool; PUSH_CA_FILE for private test/staging services.
    this.fetcher = async (url, init) => {
      const { Agent, fetch } = await undici();
      this.dispatcher ??= new Agent({
        allowH2: true,
        connections: 16,
        ...(push.ca ? { connect: { ca: push.ca } } : {}),
      });
      return fetch(url, { ...init, redirect: 'manual', dispatcher: this.dispatcher });
    };
    this.tokens = push.fcm ? new FcmAccessTokens(push.fcm, this.fetcher, config.outbound.timeoutMs) : undefined;
  }

  get configured(): boolean {
    return this.config.pushProviders.fcm !== undefined;
  }

  async onModuleDestroy(): Promise<void> {
    await this.dispatcher?.close().catch(() => undefined);
  }

  async send(device: PushTokenRow, n: PushNotification): Promise<DeviceOutcome> {
    try {
      return await this.attempt(device, n, true);
    } catch (err) {
      if (err instanceof ProviderError) return { ok: false, error: err };
      throw err;
    }
  }

  private async attempt(device: PushTokenRow, n: PushNotification, mayRenew: boolean): Promise<DeviceOutcome> {
    const fcm = this.config.pushProviders.fcm!;
    const accessToken = await this.tokens!.get();
    const answer = await postJson(
      `${fcm.apiBase}/v1/projects/${encodeURIComponent(fcm.projectId)}/messages:send`,
      { message: buildFcmMessage(device.token, n) },
      {
        headers: { authorization: `Bearer ${accessToken}` },
        timeoutMs: this.config.outbound.timeoutMs,
        fetcher: this.fetcher,
        what: 'FCM',
      },
    );
    if (answer.status === 200) {
      const name = (answer.json as { name?: unknown } | undefined)?.name;
      return { ok: true, id: typeof name === 'string' ? name : null };
    }
    if (answer.status === 401 && fcmErrorCode(answer.json) === 'UNAUTHENTICATED' && mayRenew) {
      this.tokens!.invalidate(accessToken);
      return this.attempt(device, n, false);
    }
    return { ok: false, error: classifyFcmRefusal(answer.status, answer.header, answer.json) };
  }
}
