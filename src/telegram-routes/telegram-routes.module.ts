import { Global, Module } from '@nestjs/common';
import { RouteSecrets } from './route-secrets.js';
import { TelegramRouteConnectors } from './route-connectors.js';
import { TelegramLinksService } from './telegram-links.service.js';
import { TelegramRoutesRepository } from './telegram-routes.repository.js';
import { TelegramRoutesService } from './telegram-routes.service.js';

/** Per-user Telegram bots; global so that admission and the worker read routes. */
@Global()
@Module({
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
