import { Module } from '@nestjs/common';
import { ChannelsController } from './channels.controller.js';
import { ProjectProvidersController } from './project-providers.controller.js';
import { ProjectProvidersModule } from './project-providers.module.js';
import { ProjectsModule } from '../projects/projects.module.js';

/** ProjectProvidersModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({
  imports: [ProjectsModule, ProjectProvidersModule],
  controllers: [ProjectProvidersController, ChannelsController],
})
export class ProjectProvidersHttpModule {}
