import { Module } from '@nestjs/common';
import { SubscribersModule } from '../subscribers/subscribers.module.js';
import { WorkerHeartbeatModule } from './heartbeat/worker-heartbeat.module.js';
import { BatchService } from './batch.service.js';
import { EnqueueEvents } from './enqueue-events.js';
import { EnqueueService } from './enqueue.service.js';
import { JobsRepository } from './jobs.repository.js';
import { JobsService } from './jobs.service.js';
import { DeliveryEvents } from './worker/delivery-events.js';
import { Dispatcher } from './worker/dispatcher.js';
import { MaintenanceService } from './worker/maintenance.service.js';
import { WorkerRepository } from './worker/worker.repository.js';
import { WorkerService } from './worker/worker.service.js';
import { JobEndSignals } from './wait/job-end-signals.js';
import { JobWaiter } from './wait/job-waiter.service.js';
import { OutcomeWaitService } from './wait/outcome-wait.service.js';
import { WorkerIdle } from './worker/worker-idle.js';
import { WorkerWakeup } from './worker/worker-wakeup.js';

/** The queue: enqueue (send, batch), job reads and steering, and the worker that drains it. */
@Module({
  imports: [SubscribersModule, WorkerHeartbeatModule],
  providers: [
    JobsRepository,
    EnqueueService,
    EnqueueEvents,
    BatchService,
    JobsService,
    WorkerRepository,
    WorkerWakeup,
    WorkerIdle,
    DeliveryEvents,
    Dispatcher,
    WorkerService,
    MaintenanceService,
    JobWaiter,
    JobEndSignals,
    OutcomeWaitService,
  ],
  exports: [EnqueueService, BatchService, JobsService, OutcomeWaitService, WorkerService, WorkerWakeup, MaintenanceService, DeliveryEvents, EnqueueEvents],
})
export class JobsModule {}
