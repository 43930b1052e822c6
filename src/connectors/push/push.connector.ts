import { Inject, Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { maskOpaque } from '../../common/pii/mask.js';
import type { PushPlatform, PushTokenRow } from '../../push-tokens/push-token.types.js';
import { PushTokensService } from '../../push-tokens/push-tokens.service.js';
import { NotifyConnector } from '../connector.decorator.js';
import type { Connector, DeliveryResult, OutboundMessage } from '../connector.js';
import { ProviderError } from '../provider-error.js';
import { combineDeviceOutcomes, type DeviceAttempt } from './fan-out-result.js';
import { mapLimit } from './map-limit.js';
import type { DeviceOutcome, PlatformSender } from './push-device.js';
import { buildPushNotification, type PushNotification } from './push-notification.js';
import { ApnsSender } from './apns/apns.sender.js';
import { FcmSender } from './fcm/fcm.sender.js';
import { WebPushSender } from './web-push/web-push.sender.js';

/**
 * PUSH_PROVIDER=native: one push job is one subscriber; it fans out to every device the
 * subscriber registered, each through the sender of its platform (Web Push, FCM, APNs), at
 * most PUSH_FANOUT_CONCURRENCY at a time. The job is sent when any device accepted it; devices
 * a provider declared gone are deleted in the same pass; a subscriber without devices closes
 * the job as skipped. A device whose platform is not configured is refused (and kept).
 *
 * One job per call (batchMax 1): a push provider call is per device anyway (none of the three
 * has a batch endpoint), and a job's result must stay its own.
 */
@NotifyConnector()
export class PushConnector implements Connector {
  readonly channel = 'push' as const;
  readonly provider = 'native';
  readonly batchMax = 1;
  private readonly logger = new Logger(PushConnector.name);
  private readonly senders: Map<PushPlatform, PlatformSender>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: PushTokensService,
    webPush: WebPushSender,
    fcm: FcmSender,
    apns: ApnsSender,
  ) {
    this.senders = new Map<PushPlatform, PlatformSender>([webPush, fcm, apns].map((s) => [s.platform, s]));
  }

  validateConfiguration(): void {
    if ([...this.senders.values()].some((s) => s.configured)) return;
    throw new Error(
      `PUSH_PROVIDER=native needs at least one push platform: set ${[...this.senders.values()].map((s) => s.configureHint).join(', or ')}.`,
    );
  }

  async send(messages: readonly OutboundMessage[]): Promise<DeliveryResult[]> {
    return Promise.all(messages.map((m) => this.sendOne(m)));
  }

  private async sendOne(message: OutboundMessage): Promise<DeliveryResult> {
    const subscriberId = message.subscriberId ?? message.recipient;
    const devices = await this.tokens.devicesOf(message.projectId, subscriberId);
    if (devices.length === 0) return { ok: true, providerMessageId: null, skipped: 'subscriber has no registered push device' };
    const notification = buildPushNotification(message);
    const attempts = await mapLimit(devices, this.config.pushProviders.fanoutConcurrency, async (device): Promise<DeviceAttempt> => ({
      platform: device.platform,
      outcome: await this.sendTo(device, notification),
    }));
    const dead = devices.filter((_, i) => {
      const outcome = attempts[i].outcome;
      return !outcome.ok && outcome.error.deadRecipient;
    });
    if (dead.length) {
      // A failed delete only means the next job tries the device again and deletes it then.
      const removed = await this.tokens.deleteDead(message.projectId, dead).catch((err: Error) => {
        this.logger.warn(`could not delete ${dead.length} dead push device(s): ${err.message}`);
        return 0;
      });
      this.logger.log(`deleted ${removed} dead push device(s) of a subscriber: ${dead.map((d) => `${d.platform} ${maskOpaque(d.token)}`).join(', ')}`);
    }
    return combineDeviceOutcomes(attempts);
  }

  private async sendTo(device: PushTokenRow, notification: PushNotification): Promise<DeviceOutcome> {
    const sender = this.senders.get(device.platform);
    if (!sender?.configured) {
      return { ok: false, error: ProviderError.permanent(`${device.platform} push is not configured on this instance (set ${sender?.configureHint ?? 'its credentials'})`) };
    }
    try {
      return await sender.send(device, notification);
    } catch (err) {
      return { ok: false, error: ProviderError.transient(`${device.platform} push failed: ${(err as Error)?.message ?? String(err)}`) };
    }
  }
}
