import { Module } from '@nestjs/common';
import { PushTokensModule } from '../../push-tokens/push-tokens.module.js';
import { ApnsSender } from './apns/apns.sender.js';
import { FcmSender } from './fcm/fcm.sender.js';
import { PushConnector } from './push.connector.js';
import { WebPushSender } from './web-push/web-push.sender.js';
import { ConnectorsModule } from '../connectors.module.js';

/** PUSH_PROVIDER=native: Web Push, FCM and APNs behind one push connector. */
@Module({
  imports: [ConnectorsModule, PushTokensModule],
  providers: [PushConnector, WebPushSender, FcmSender, ApnsSender],
})
export class PushModule {}
