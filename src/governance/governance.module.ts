import { Module } from '@nestjs/common';
import { GovernanceService } from './governance.service.js';
import { SendChecksRepository } from './send-checks.repository.js';
import { SuppressionsRepository } from './suppressions/suppressions.repository.js';
import { SuppressionsService } from './suppressions/suppressions.service.js';
import { SendWindowsRepository } from './send-windows/send-windows.repository.js';
import { SendWindowsService } from './send-windows/send-windows.service.js';
import { CapsRepository } from './caps/caps.repository.js';
import { CapsService } from './caps/caps.service.js';
import { SegmentsRepository } from './segments/segments.repository.js';
import { SegmentsService } from './segments/segments.service.js';
import { JobEventsModule } from '../job-events/job-events.module.js';
import { SubscribersModule } from '../subscribers/subscribers.module.js';
import { PreferencesRepository } from './preferences/preferences.repository.js';
import { PreferencesService } from './preferences/preferences.service.js';
import { UnsubscribeService } from './unsubscribe/unsubscribe.service.js';
import { TrackingService } from './tracking/tracking.service.js';
import { PreferenceCenterService } from './preference-center/preference-center.service.js';
import { AuditModule } from '../audit/audit.module.js';
import { ProjectsModule } from '../projects/projects.module.js';

/**
 * Who may be sent what: suppressions (every channel), and the worker's per-batch screening.
 * Imported by enqueue and the worker (jobs), provider webhooks, webhooks, the inbox and MCP tools.
 */
@Module({
  imports: [AuditModule, ProjectsModule, SubscribersModule, JobEventsModule],
  providers: [
    GovernanceService,
    SendChecksRepository,
    SuppressionsRepository,
    SuppressionsService,
    // Issue 6b.
    SendWindowsRepository,
    SendWindowsService,
    CapsRepository,
    CapsService,
    SegmentsRepository,
    SegmentsService,
    // Issue 6a: preferences.
    PreferencesRepository,
    PreferencesService,
    UnsubscribeService,
    TrackingService,
    PreferenceCenterService,
  ],
  exports: [
    GovernanceService,
    SuppressionsService,
    // Issue 6b.
    SendWindowsService,
    CapsService,
    SegmentsService,
    PreferencesService,
    TrackingService,
    UnsubscribeService,
    PreferenceCenterService,
  ],
})
export class GovernanceModule {}
