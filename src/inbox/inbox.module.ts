import { Module, type OnModuleInit } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module.js';
import { SubscribersModule } from '../subscribers/subscribers.module.js';
import { WorkflowEngine } from '../workflows/engine/workflow-engine.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { InboxAuthGuard } from './auth/inbox-auth.guard.js';
import { SubscriberTokens } from './auth/subscriber-tokens.js';
import { InboxMaintenance } from './inbox-maintenance.service.js';
import { InboxStreamController } from './inbox-stream.controller.js';
import { InboxController } from './inbox.controller.js';
import { InboxRepository } from './inbox.repository.js';
import { InboxService } from './inbox.service.js';
import { InboxHub } from './stream/inbox-hub.js';
import { InboxStreamService } from './stream/inbox-stream.service.js';
import { StreamTickets } from './stream/stream-tickets.js';
import { SubscriberTokensController } from './subscriber-tokens.controller.js';
import { InboxWidgetController } from './web/inbox-widget.controller.js';

/**
 * The in-app inbox for subscribers: API (list, counts, read/seen/archive/snooze), subscriber
 * tokens, the SSE stream with replay, and the embeddable web component.
 */
@Module({
  imports: [JobsModule, WorkflowsModule, SubscribersModule],
  controllers: [InboxController, InboxStreamController, SubscriberTokensController, InboxWidgetController],
  providers: [InboxRepository, InboxService, InboxHub, InboxStreamService, StreamTickets, SubscriberTokens, InboxAuthGuard, InboxMaintenance],
  exports: [InboxService, InboxHub],
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
