import { Global, Module } from '@nestjs/common';
import { ProjectProvidersController } from './project-providers.controller.js';
import { ProjectProvidersRepository } from './project-providers.repository.js';
import { ProjectProvidersService } from './project-providers.service.js';

/** Per-project providers (admin API, encrypted credentials); global so that the worker reads them. */
@Global()
@Module({
  controllers: [ProjectProvidersController],
  providers: [ProjectProvidersRepository, ProjectProvidersService],
  exports: [ProjectProvidersService],
})
export class ProjectProvidersModule {}
