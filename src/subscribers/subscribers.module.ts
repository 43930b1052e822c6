import { Module } from '@nestjs/common';
import { SubscribersRepository } from './subscribers.repository.js';
import { SubscribersService } from './subscribers.service.js';

@Module({
  providers: [SubscribersRepository, SubscribersService],
  exports: [SubscribersService],
})
export class SubscribersModule {}
