import { Module } from '@nestjs/common';
import { WorkerHeartbeatModule } from '../jobs/heartbeat/worker-heartbeat.module.js';
import { HealthService } from './health.service.js';

/** HealthService: the probes' answers, served by HealthController (api) or WorkerHealthServer (worker). */
@Module({ imports: [WorkerHeartbeatModule], providers: [HealthService], exports: [HealthService] })
export class HealthModule {}
