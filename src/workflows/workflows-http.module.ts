import { Module } from '@nestjs/common';
import { AdminWorkflowsController } from './admin-workflows.controller.js';
import { WorkflowsController } from './workflows.controller.js';
import { WorkflowsModule } from './workflows.module.js';
import { ProjectsModule } from '../projects/projects.module.js';

/** WorkflowsModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({ imports: [ProjectsModule, WorkflowsModule], controllers: [WorkflowsController, AdminWorkflowsController] })
export class WorkflowsHttpModule {}
