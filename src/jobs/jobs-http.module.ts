import { Module } from '@nestjs/common';
import { AdminJobsController } from './admin-jobs.controller.js';
import { BatchesController } from './batches.controller.js';
import { JobsController } from './jobs.controller.js';
import { SendController } from './send.controller.js';
import { JobsModule } from './jobs.module.js';
import { TraceController } from './trace.controller.js';
import { ProjectsModule } from '../projects/projects.module.js';

/** JobsModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({
  imports: [ProjectsModule, JobsModule],
  controllers: [SendController, JobsController, AdminJobsController, BatchesController, TraceController],
})
export class JobsHttpModule {}
