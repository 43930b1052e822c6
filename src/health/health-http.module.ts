import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { HealthModule } from './health.module.js';

/** HealthModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({ imports: [HealthModule], controllers: [HealthController] })
export class HealthHttpModule {}
