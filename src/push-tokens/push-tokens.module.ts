import { Module } from '@nestjs/common';
import { PushTokensController } from './push-tokens.controller.js';
import { PushTokensRepository } from './push-tokens.repository.js';
import { PushTokensService } from './push-tokens.service.js';
import { VapidKeyController } from './vapid-key.controller.js';

/** Subscribers' push devices (notifyd §2.7); the push connector reads and prunes them through the service. */
@Module({
  controllers: [PushTokensController, VapidKeyController],
  providers: [PushTokensRepository, PushTokensService],
  exports: [PushTokensService],
})
export class PushTokensModule {}
