import { Module } from '@nestjs/common';
import { SubscribersModule } from '../subscribers/subscribers.module.js';
import { WorkerHeartbeatModule } from './heartbeat/worker-heartbeat.module.js';
import { AdmissionService } from './admission/admission.service.js';
import { ChatBindingStep } from './admission/steps/chat-binding.step.js';
import { TelegramRouteStep } from './admission/steps/telegram-route.step.js';
import { InsertStep } from './admission/steps/insert.step.js';
import { RulesStep } from './admission/steps/rules.step.js';
import { SendWindowStep } from './admission/steps/send-window.step.js';
import { SignalStep } from './admission/steps/signal.step.js';
import { RefusalsStep } from './admission/steps/refusals.step.js';
import { RefusalsRepository } from './refusals/refusals.repository.js';
import { TraceService } from './trace/trace.service.js';
import { BatchService } from './batch.service.js';
import { BatchStatusService } from './batch-status.service.js';
import { BatchesRepository } from './batches.repository.js';
import { JobEventsModule } from '../job-events/job-events.module.js';
import { ProviderWebhooksModule } from '../governance/provider-webhooks/provider-webhooks.module.js';
import { EnqueueService } from './enqueue.service.js';
import { JobsRepository } from './jobs.repository.js';
import { JobContentsRepository } from './content/job-contents.repository.js';
import { JobsService } from './jobs.service.js';
import { DeliveryEvents } from './worker/delivery-events.js';
import { LogSimulatorEvidence } from './worker/log-simulator-evidence.js';
import { Dispatcher } from './worker/dispatcher.js';
import { MaintenanceService } from './worker/maintenance.service.js';
import { WorkerRepository } from './worker/worker.repository.js';
import { WorkerService } from './worker/worker.service.js';
import { JobEndSignals } from './wait/job-end-signals.js';
import { JobWaiter } from './wait/job-waiter.service.js';
import { OutcomeWaitService } from './wait/outcome-wait.service.js';
import { WorkerIdle } from './worker/worker-idle.js';
import { WorkerWakeup } from './worker/worker-wakeup.js';
import { ConnectorsModule } from '../connectors/connectors.module.js';
import { PacingModule } from '../pacing/pacing.module.js';
import { TemplatesModule } from '../templates/templates.module.js';
import { ChatBindingsModule } from '../chat-bindings/chat-bindings.module.js';
import { TelegramRoutesModule } from '../telegram-routes/telegram-routes.module.js';
import { GovernanceModule } from '../governance/governance.module.js';
import { AuditModule } from '../audit/audit.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { ProjectProvidersModule } from '../project-providers/project-providers.module.js';
import { PeriodicModule } from '../periodic/periodic.module.js';

/** The queue: enqueue (send, batch), job reads and steering, and the worker that drains it. */
@Module({
  imports: [
    ConnectorsModule,
    PacingModule,
    TemplatesModule,
    ChatBindingsModule,
    TelegramRoutesModule,
    GovernanceModule,
    AuditModule,
    ProjectsModule,
    ProjectProvidersModule,
    PeriodicModule,
    SubscribersModule,
    WorkerHeartbeatModule,
    JobEventsModule,
    ProviderWebhooksModule,
  ],
  providers: [
    JobsRepository,
    JobContentsRepository,
    AdmissionService,
    ChatBindingStep,
    TelegramRouteStep,
    SendWindowStep,
    RulesStep,
    InsertStep,
    SignalStep,
    RefusalsStep,
    RefusalsRepository,
    TraceService,
    EnqueueService,
    BatchService,
    BatchesRepository,
    BatchStatusService,
    JobsService,
    WorkerRepository,
    WorkerWakeup,
    WorkerIdle,
    DeliveryEvents,
    LogSimulatorEvidence,
    Dispatcher,
    WorkerService,
    MaintenanceService,
    JobWaiter,
    JobEndSignals,
    OutcomeWaitService,
  ],
  exports: [
    TraceService,
    AdmissionService,
    EnqueueService,
    BatchService,
    BatchStatusService,
    JobsService,
    OutcomeWaitService,
    WorkerService,
    WorkerWakeup,
    MaintenanceService,
    DeliveryEvents,
    JobEventsModule,
  ],
})
export class JobsModule {}
