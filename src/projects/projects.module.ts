import { Global, Module } from '@nestjs/common';
import { ProjectsRepository } from './projects.repository.js';
import { ProjectsService } from './projects.service.js';

/** Global: every project route's guard resolves its key through ProjectsService. */
@Global()
@Module({
  providers: [ProjectsRepository, ProjectsService],
  exports: [ProjectsService],
})
export class ProjectsModule {}
