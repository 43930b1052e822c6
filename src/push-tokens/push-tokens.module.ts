import { Module } from '@nestjs/common';
import { PushTokensRepository } from './push-tokens.repository.js';
import { PushTokensService } from './push-tokens.service.js';

/** Subscribers' push devices (notifyd §2.7); the push connector reads and prunes them through the service. */
@Module({
  providers: [PushTokensRepository, PushTokensService],
  exports: [PushTokensService],
})
export class PushTokensModule {}
