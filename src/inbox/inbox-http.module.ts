import { Module } from '@nestjs/common';
import { SubscribersModule } from '../subscribers/subscribers.module.js';
import { InboxAuthGuard } from './auth/inbox-auth.guard.js';
import { StreamRevocations } from './auth/stream-revocations.js';
import { SubscriberTokens } from './auth/subscriber-tokens.js';
import { InboxStreamController } from './inbox-stream.controller.js';
import { InboxController } from './inbox.controller.js';
import { InboxPreferencesController } from './preferences/inbox-preferences.controller.js';
import { InboxModule } from './inbox.module.js';
import { InboxStreamService } from './stream/inbox-stream.service.js';
import { StreamSlots } from './stream/stream-slots.js';
import { StreamTickets } from './stream/stream-tickets.js';
import { SubscriberTokensController } from './subscriber-tokens.controller.js';
import { InboxWidgetController } from './web/inbox-widget.controller.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { GovernanceModule } from '../governance/governance.module.js';

/**
 * InboxModule's HTTP side: the API, the subscriber's preferences, subscriber tokens, the SSE stream with replay and the web
 * component. Only api and all replicas load it (see app-http.module.ts).
 */
@Module({
  imports: [ProjectsModule, GovernanceModule, InboxModule, SubscribersModule],
  controllers: [
    InboxController,
    InboxPreferencesController,
    InboxStreamController,
    SubscriberTokensController,
    InboxWidgetController,
  ],
  providers: [InboxStreamService, StreamSlots, StreamTickets, SubscriberTokens, InboxAuthGuard, StreamRevocations],
})
export class InboxHttpModule {}
