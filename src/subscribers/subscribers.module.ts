import { Module } from '@nestjs/common';
import { SubscribersController } from './subscribers.controller.js';
import { SubscribersRepository } from './subscribers.repository.js';
import { SubscribersService } from './subscribers.service.js';

@Module({
  controllers: [SubscribersController],
  providers: [SubscribersRepository, SubscribersService],
  exports: [SubscribersService],
})
export class SubscribersModule {}
