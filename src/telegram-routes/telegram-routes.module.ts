import { Module } from '@nestjs/common';
import { RouteSecrets } from './route-secrets.js';
import { TelegramRouteConnectors } from './route-connectors.js';
import { TelegramLinksService } from './telegram-links.service.js';
import { TelegramRoutesRepository } from './telegram-routes.repository.js';
import { TelegramRoutesService } from './telegram-routes.service.js';
import { AuditModule } from '../audit/audit.module.js';
import { ProjectProvidersModule } from '../project-providers/project-providers.module.js';
import { ConnectorsModule } from '../connectors/connectors.module.js';

/** Per-user Telegram bots; jobs imports it (admission and the worker read routes). */
@Module({
  imports: [AuditModule, ProjectProvidersModule, ConnectorsModule],
  providers: [
    TelegramRoutesRepository,
    RouteSecrets,
    TelegramRoutesService,
    TelegramLinksService,
    TelegramRouteConnectors,
  ],
  exports: [TelegramRoutesService, TelegramLinksService, TelegramRouteConnectors],
})
export class TelegramRoutesModule {}
