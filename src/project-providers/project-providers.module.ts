import { Global, Module } from '@nestjs/common';
import { ProjectProvidersRepository } from './project-providers.repository.js';
import { ProjectProvidersService } from './project-providers.service.js';

/** Per-project providers (admin API, encrypted credentials); global so that the worker reads them. */
@Global()
@Module({
  providers: [ProjectProvidersRepository, ProjectProvidersService],
  exports: [ProjectProvidersService],
})
export class ProjectProvidersModule {}
