import { Global, Module } from '@nestjs/common';
import { AdminProjectsController } from './admin-projects.controller.js';
import { ProjectsRepository } from './projects.repository.js';
import { ProjectsService } from './projects.service.js';

/** Global: every project route's guard resolves its key through ProjectsService. */
@Global()
@Module({
  controllers: [AdminProjectsController],
  providers: [ProjectsRepository, ProjectsService],
  exports: [ProjectsService],
})
export class ProjectsModule {}
