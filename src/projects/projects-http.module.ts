import { Module } from '@nestjs/common';
import { AdminProjectsController } from './admin-projects.controller.js';
import { ProjectsModule } from './projects.module.js';

/** ProjectsModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({ imports: [ProjectsModule], controllers: [AdminProjectsController] })
export class ProjectsHttpModule {}
