import { Module } from '@nestjs/common';
import { SubscriberTokenVersions } from './subscriber-token-versions.js';
import { SubscribersBulkService } from './subscribers-bulk.service.js';
import { SubscribersRepository } from './subscribers.repository.js';
import { SubscribersService } from './subscribers.service.js';

@Module({
  providers: [SubscribersRepository, SubscribersService, SubscriberTokenVersions, SubscribersBulkService],
  exports: [SubscribersService, SubscriberTokenVersions, SubscribersBulkService],
})
export class SubscribersModule {}
