import { Module } from '@nestjs/common';
import { AdminSuppressionsController } from './suppressions/admin-suppressions.controller.js';
import { CapsController } from './caps/caps.controller.js';
import { AdminPreferencesController } from './preferences/admin-preferences.controller.js';
import { PreferencesController } from './preferences/preferences.controller.js';
import { SegmentsController } from './segments/segments.controller.js';
import { SendWindowsController } from './send-windows/send-windows.controller.js';
import { SuppressionsController } from './suppressions/suppressions.controller.js';
import { TrackingController } from './tracking/tracking.controller.js';
import { PreferenceCenterController } from './preference-center/preference-center.controller.js';
import { UnsubscribeController } from './unsubscribe/unsubscribe.controller.js';
import { GovernanceModule } from './governance.module.js';
import { ProjectsModule } from '../projects/projects.module.js';

/** GovernanceModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({
  imports: [ProjectsModule, GovernanceModule],
  controllers: [
    SuppressionsController,
    AdminSuppressionsController,
    SendWindowsController,
    CapsController,
    SegmentsController,
    PreferencesController,
    AdminPreferencesController,
    UnsubscribeController,
    PreferenceCenterController,
    TrackingController,
  ],
})
export class GovernanceHttpModule {}
