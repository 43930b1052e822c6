import { Global, Module } from '@nestjs/common';
import { GovernanceService } from './governance.service.js';
import { AdminSuppressionsController } from './suppressions/admin-suppressions.controller.js';
import { SuppressionsController } from './suppressions/suppressions.controller.js';
import { SuppressionsRepository } from './suppressions/suppressions.repository.js';
import { SuppressionsService } from './suppressions/suppressions.service.js';
import { SendWindowsController } from './send-windows/send-windows.controller.js';
import { SendWindowsRepository } from './send-windows/send-windows.repository.js';
import { SendWindowsService } from './send-windows/send-windows.service.js';
import { CapsController } from './caps/caps.controller.js';
import { CapsRepository } from './caps/caps.repository.js';
import { CapsService } from './caps/caps.service.js';
import { SegmentsController } from './segments/segments.controller.js';
import { SegmentsRepository } from './segments/segments.repository.js';
import { SegmentsService } from './segments/segments.service.js';
import { SubscribersModule } from '../subscribers/subscribers.module.js';
import { PreferencesController } from './preferences/preferences.controller.js';
import { PreferencesRepository } from './preferences/preferences.repository.js';
import { PreferencesService } from './preferences/preferences.service.js';
import { UnsubscribeController } from './unsubscribe/unsubscribe.controller.js';
import { UnsubscribeService } from './unsubscribe/unsubscribe.service.js';
import { TrackingController } from './tracking/tracking.controller.js';
import { TrackingService } from './tracking/tracking.service.js';

/**
 * Who may be sent what: suppressions (every channel), and the worker's per-batch screening.
 * Global so that enqueue, the worker, provider webhooks and MCP tools reach its services.
 */
@Global()
@Module({
  imports: [SubscribersModule],
  controllers: [
    SuppressionsController,
    AdminSuppressionsController,
    // Issue 6b: send windows, per-recipient caps.
    SendWindowsController,
    CapsController,
    SegmentsController,
    // Issue 6a: preferences.
    PreferencesController,
    UnsubscribeController,
    TrackingController,
  ],
  providers: [
    GovernanceService,
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
  ],
})
export class GovernanceModule {}
