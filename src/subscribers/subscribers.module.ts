import { Module } from '@nestjs/common';
import { SubscriberTokenVersions } from './subscriber-token-versions.js';
import { SubscribersRepository } from './subscribers.repository.js';
import { SubscribersService } from './subscribers.service.js';

@Module({
  providers: [SubscribersRepository, SubscribersService, SubscriberTokenVersions],
  exports: [SubscribersService, SubscriberTokenVersions],
})
export class SubscribersModule {}
