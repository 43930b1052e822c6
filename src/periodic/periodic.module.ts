import { Module } from '@nestjs/common';
import { PeriodicTasks } from './periodic-tasks.service.js';

/** Once-per-tick periodic work across replicas (periodic_runs leader row per task). */
@Module({ providers: [PeriodicTasks], exports: [PeriodicTasks] })
export class PeriodicModule {}
