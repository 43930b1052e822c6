import { Module, type OnModuleInit } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module.js';
import { SubscribersModule } from '../subscribers/subscribers.module.js';
import { WorkflowEngine } from '../workflows/engine/workflow-engine.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { InboxMaintenance } from './inbox-maintenance.service.js';
import { InboxRepository } from './inbox.repository.js';
import { InboxService } from './inbox.service.js';
import { InboxHub } from './stream/inbox-hub.js';
import { PeriodicModule } from '../periodic/periodic.module.js';

/**
 * The in-app inbox for subscribers: messages, the hub that fans changes out, maintenance. The
 * API (list, counts, read/seen/archive/snooze), subscriber tokens, the SSE stream with replay
 * and the embeddable web component are in InboxHttpModule.
 */
@Module({
  imports: [PeriodicModule, JobsModule, WorkflowsModule, SubscribersModule],
  providers: [InboxRepository, InboxService, InboxHub, InboxMaintenance],
  exports: [InboxService, InboxHub, InboxRepository],
})
export class InboxModule implements OnModuleInit {
  constructor(
    private readonly engine: WorkflowEngine,
    private readonly repository: InboxRepository,
  ) {}

  /** Workflow conditions on `inbox.is_read` ask the inbox. */
  onModuleInit(): void {
    this.engine.useInboxReadLookup((projectId, jobIds) => this.repository.readByJobs(projectId, jobIds));
  }
}
