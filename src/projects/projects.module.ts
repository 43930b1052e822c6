import { Module } from '@nestjs/common';
import { ProjectAuditEvents } from './project-audit-events.js';
import { ProjectsRepository } from './projects.repository.js';
import { ProjectsService } from './projects.service.js';
import { RateLimitRepository } from './rate-limit/rate-limit.repository.js';
import { RateLimiter } from './rate-limit/rate-limiter.service.js';

/**
 * Imported by every module whose routes use the guards in auth/ (they resolve the key through
 * ProjectsService and spend the project's rate_limit_per_min through RateLimiter), and by the
 * services that read projects (so do /mcp and the inbox).
 */
@Module({
  providers: [ProjectsRepository, ProjectsService, ProjectAuditEvents, RateLimitRepository, RateLimiter],
  exports: [ProjectsService, ProjectAuditEvents, RateLimiter],
})
export class ProjectsModule {}
