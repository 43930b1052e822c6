import { Global, Module } from '@nestjs/common';
import { ProjectAuditEvents } from './project-audit-events.js';
import { ProjectsRepository } from './projects.repository.js';
import { ProjectsService } from './projects.service.js';
import { RateLimitRepository } from './rate-limit/rate-limit.repository.js';
import { RateLimiter } from './rate-limit/rate-limiter.service.js';

/**
 * Global: every project route's guard resolves its key through ProjectsService and spends the
 * project's rate_limit_per_min through RateLimiter (so do /mcp and the inbox).
 */
@Global()
@Module({
  providers: [ProjectsRepository, ProjectsService, ProjectAuditEvents, RateLimitRepository, RateLimiter],
  exports: [ProjectsService, ProjectAuditEvents, RateLimiter],
})
export class ProjectsModule {}
