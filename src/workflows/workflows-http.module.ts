import { Module } from '@nestjs/common';
import { AdminWorkflowsController } from './admin-workflows.controller.js';
import { WorkflowsController } from './workflows.controller.js';
import { WorkflowsModule } from './workflows.module.js';

/** WorkflowsModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({ imports: [WorkflowsModule], controllers: [WorkflowsController, AdminWorkflowsController] })
export class WorkflowsHttpModule {}
