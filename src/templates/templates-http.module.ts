import { Module } from '@nestjs/common';
import { AdminTemplatesController } from './admin-templates.controller.js';
import { TemplatesController } from './templates.controller.js';
import { TemplatesModule } from './templates.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { AuditModule } from '../audit/audit.module.js';

/** TemplatesModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({
  imports: [ProjectsModule, AuditModule, TemplatesModule],
  controllers: [TemplatesController, AdminTemplatesController],
})
export class TemplatesHttpModule {}
