import { Module } from '@nestjs/common';
import { DigestController } from './digest.controller.js';
import { DigestModule } from './digest.module.js';
import { AdminEventsController } from './live/admin-events.controller.js';
import { AdminEventsService } from './live/admin-events.service.js';
import { SettingsController } from './settings/settings.controller.js';
import { ProjectsModule } from '../projects/projects.module.js';

/** DigestModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({
  imports: [ProjectsModule, DigestModule],
  controllers: [DigestController, SettingsController, AdminEventsController],
  providers: [AdminEventsService],
})
export class DigestHttpModule {}
