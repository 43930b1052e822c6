import { Module } from '@nestjs/common';
import { AdminLanesController } from './admin-lanes.controller.js';
import { PacingModule } from './pacing.module.js';
import { ProjectsModule } from '../projects/projects.module.js';

/** PacingModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({ imports: [ProjectsModule, PacingModule], controllers: [AdminLanesController] })
export class PacingHttpModule {}
