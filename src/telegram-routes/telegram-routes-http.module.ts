import { Module } from '@nestjs/common';
import { TelegramRoutesController } from './telegram-routes.controller.js';
import { TelegramRoutesModule } from './telegram-routes.module.js';
import { TelegramWebhookController } from './telegram-webhook.controller.js';
import { ProjectsModule } from '../projects/projects.module.js';

/** TelegramRoutesModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({
  imports: [ProjectsModule, TelegramRoutesModule],
  controllers: [TelegramWebhookController, TelegramRoutesController],
})
export class TelegramRoutesHttpModule {}
