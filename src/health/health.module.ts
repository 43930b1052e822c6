import { Module } from '@nestjs/common';
import { HealthService } from './health.service.js';

/** HealthService: the probes' answers, served by HealthController (api) or WorkerHealthServer (worker). */
@Module({ providers: [HealthService], exports: [HealthService] })
export class HealthModule {}
