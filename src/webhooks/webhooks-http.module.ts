import { Module } from '@nestjs/common';
import { AdminWebhooksController } from './admin-webhooks.controller.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksModule } from './webhooks.module.js';
import { ProjectsModule } from '../projects/projects.module.js';

/** WebhooksModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({ imports: [ProjectsModule, WebhooksModule], controllers: [WebhooksController, AdminWebhooksController] })
export class WebhooksHttpModule {}
