import { Module } from '@nestjs/common';
import { AdminSubscribersController } from './admin-subscribers.controller.js';
import { SubscribersController } from './subscribers.controller.js';
import { SubscribersModule } from './subscribers.module.js';
import { ProjectsModule } from '../projects/projects.module.js';

/** SubscribersModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({
  imports: [ProjectsModule, SubscribersModule],
  controllers: [SubscribersController, AdminSubscribersController],
})
export class SubscribersHttpModule {}
