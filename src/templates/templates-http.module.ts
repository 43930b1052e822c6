import { Module } from '@nestjs/common';
import { TemplatesController } from './templates.controller.js';
import { TemplatesModule } from './templates.module.js';

/** TemplatesModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({ imports: [TemplatesModule], controllers: [TemplatesController] })
export class TemplatesHttpModule {}
