import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module.js';
import { SubscribersModule } from '../subscribers/subscribers.module.js';
import { TemplatesModule } from '../templates/templates.module.js';
import { RunExecutor } from './engine/run-executor.js';
import { WorkflowEngine } from './engine/workflow-engine.js';
import { WorkflowsRepository } from './workflows.repository.js';
import { WorkflowsService } from './workflows.service.js';
import { PeriodicModule } from '../periodic/periodic.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { AuditModule } from '../audit/audit.module.js';

/** Event-triggered workflows: definitions, triggers, runs resumed by the worker role. */
@Module({
  imports: [PeriodicModule, ProjectsModule, AuditModule, JobsModule, SubscribersModule, TemplatesModule],
  providers: [WorkflowsRepository, RunExecutor, WorkflowEngine, WorkflowsService],
  exports: [WorkflowEngine, WorkflowsService],
})
export class WorkflowsModule {}
