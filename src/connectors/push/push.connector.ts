import { Inject, Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { maskOpaque } from '../../common/pii/mask.js';
import {
  type DeadPushToken,
  type PushPlatform,
  type PushTokenRow,
  subscriberKey,
} from '../../domain/push-token.types.js';
import { PushTokensService } from '../../push-tokens/push-tokens.service.js';
import { NotifyConnector } from '../connector.decorator.js';
import type { Connector, DeliveryResult, OutboundMessage } from '../connector.js';
import { ProviderError } from '../provider-error.js';
import { combineDeviceOutcomes, type DeviceAttempt } from './fan-out-result.js';
import { mapLimit } from './map-limit.js';
import type { DeviceOutcome, PlatformSender } from './push-device.js';
import { buildPushNotification, type PushNotification } from './push-notification.js';
import { StartDeadline } from './start-deadline.js';
import { ApnsSender } from './apns/apns.sender.js';
import { FcmSender } from './fcm/fcm.sender.js';
import { WebPushSender } from './web-push/web-push.sender.js';

/** What one job's fan-out came to: its result and the devices found dead on the way. */
interface JobFanOut {
  result: DeliveryResult;
  dead: (DeadPushToken & { platform: PushPlatform })[];
}

/**
 * PUSH_PROVIDER=native: one push job is one subscriber; it fans out to every device the
 * subscriber registered, each through the sender of its platform (Web Push, FCM, APNs), at
 * most PUSH_FANOUT_CONCURRENCY at a time. The job is sent when any device accepted it; devices
 * a provider declared gone are deleted after the call; a subscriber without devices closes the
 * job as skipped. A device whose platform is not configured is refused (and kept).
 *
 * A call takes up to 100 jobs (none of the three providers has a batch endpoint, but the
 * devices of every subscriber of the call are read in one query and the dead ones deleted in
 * one statement) and works through them WORKER_CONCURRENCY at a time, the parallelism the
 * dispatcher gave calls of one job. Each result stays its job's own, so a call refused whole
 * is never retried item by item (perMessageResults). Pacing counts device requests
 * (requestsFor): the devices are read before the call is paced and that read is the one the
 * call sends to (a device registered during the pacing wait gets the next notification).
 */
@NotifyConnector()
export class PushConnector implements Connector {
  readonly channel = 'push' as const;
  readonly provider = 'native';
  readonly batchMax = 100;
  readonly meters = 'messages' as const;
  readonly perMessageResults = true;
  private readonly logger = new Logger(PushConnector.name);
  private readonly senders: Map<PushPlatform, PlatformSender>;
  /** Each message's devices as requestsFor() read them, for send() (held no longer than the message). */
  private readonly devicesRead = new WeakMap<OutboundMessage, readonly PushTokenRow[]>();

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

  /** One request per device of every subscriber of the call (a subscriber without devices costs nothing). */
  async requestsFor(messages: readonly OutboundMessage[]): Promise<number> {
    const devices = await this.devicesFor(messages);
    return devices.reduce((n, list) => n + list.length, 0);
  }

  /** The devices of each message's subscriber: those requestsFor() read, the others in one query. */
  private async devicesFor(messages: readonly OutboundMessage[]): Promise<(readonly PushTokenRow[])[]> {
    const unread = messages.filter((m) => !this.devicesRead.has(m));
    if (unread.length) {
      const keys = unread.map((m) => ({ projectId: m.projectId, subscriberId: m.subscriberId ?? m.recipient }));
      const found = await this.tokens.devicesOf(keys);
      unread.forEach((m, i) => this.devicesRead.set(m, found.get(subscriberKey(keys[i])) ?? []));
    }
    return messages.map((m) => this.devicesRead.get(m)!);
  }

  async send(messages: readonly OutboundMessage[]): Promise<DeliveryResult[]> {
    const deadline = new StartDeadline({
      sendTimeoutMs: this.config.worker.sendTimeoutMs,
      outboundTimeoutMs: this.config.outbound.timeoutMs,
      fanoutConcurrency: this.config.pushProviders.fanoutConcurrency,
      concurrency: this.config.worker.concurrency,
    });
    const devices = await this.devicesFor(messages);
    const jobs = messages.map((message, i) => ({ message, devices: devices[i] }));
    const fanOuts = await mapLimit(jobs, this.config.worker.concurrency, (job) =>
      deadline.mayStart(job.devices.length) ? this.fanOut(job.message, job.devices) : Promise.resolve(notAttempted()),
    );
    await this.deleteDead(fanOuts.flatMap((f) => f.dead));
    return fanOuts.map((f) => f.result);
  }

  private async fanOut(message: OutboundMessage, devices: readonly PushTokenRow[]): Promise<JobFanOut> {
    if (devices.length === 0)
      return {
        result: { ok: true, providerMessageId: null, skipped: 'subscriber has no registered push device' },
        dead: [],
      };
    const notification = buildPushNotification(message);
    const attempts = await mapLimit(
      devices,
      this.config.pushProviders.fanoutConcurrency,
      async (device): Promise<DeviceAttempt> => ({
        platform: device.platform,
        outcome: await this.sendTo(device, notification),
      }),
    );
    const dead = devices
      .filter((_, i) => {
        const outcome = attempts[i].outcome;
        return !outcome.ok && outcome.error.deadRecipient;
      })
      .map((d) => ({ projectId: message.projectId, id: d.id, token: d.token, platform: d.platform }));
    return { result: combineDeviceOutcomes(attempts), dead };
  }

  /** One statement for the whole call. A failed delete only means a later job tries the device again and deletes it then. */
  private async deleteDead(dead: JobFanOut['dead']): Promise<void> {
    if (dead.length === 0) return;
    // Two jobs of the call for one subscriber both find its dead device.
    const unique = [...new Map(dead.map((d) => [d.id, d])).values()];
    const removed = await this.tokens.deleteDead(unique).catch((err: Error) => {
      this.logger.warn(`could not delete ${unique.length} dead push device(s): ${err.message}`);
      return 0;
    });
    this.logger.log(
      `deleted ${removed} dead push device(s): ${unique.map((d) => `${d.platform} ${maskOpaque(d.token)}`).join(', ')}`,
    );
  }

  private async sendTo(device: PushTokenRow, notification: PushNotification): Promise<DeviceOutcome> {
    const sender = this.senders.get(device.platform);
    if (!sender?.configured) {
      return {
        ok: false,
        error: ProviderError.permanent(
          `${device.platform} push is not configured on this instance (set ${sender?.configureHint ?? 'its credentials'})`,
        ),
      };
    }
    try {
      return await sender.send(device, notification);
    } catch (err) {
      return {
        ok: false,
        error: ProviderError.transient(`${device.platform} push failed: ${(err as Error)?.message ?? String(err)}`),
      };
    }
  }
}

/** A job of the call left unsent because the call ran short of time: retried like a transient failure. */
function notAttempted(): JobFanOut {
  return {
    result: {
      ok: false,
      error: ProviderError.transient(
        'not attempted: this batch of push jobs ran short of WORKER_SEND_TIMEOUT_MS before reaching it (slow push services)',
      ),
    },
    dead: [],
  };
}
