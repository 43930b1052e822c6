import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller.js';
import { AuditModule } from './audit.module.js';
import { ProjectsModule } from '../projects/projects.module.js';

/** AuditModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({ imports: [ProjectsModule, AuditModule], controllers: [AuditController] })
export class AuditHttpModule {}
