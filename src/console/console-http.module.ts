import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ConsoleAssetsController } from './console-assets.controller.js';
import { ConsoleSessionController } from './console-session.controller.js';
import { ConsoleSessionGuard } from './console-session.guard.js';
import { ConsoleSessionsService } from './console-sessions.service.js';
import { ProjectsModule } from '../projects/projects.module.js';

/**
 * The operator console at /console (docs/CONSOLE.md): its static page and bundle, sign-in and
 * sign-out, and the global guard that lets the console's session cookie stand for the key it was
 * made from on the admin API. The console has no routes of its own beyond these: its pages call
 * the public API. Only api and all replicas load it (app-http.module.ts).
 */
@Module({
  imports: [ProjectsModule],
  controllers: [ConsoleAssetsController, ConsoleSessionController],
  providers: [ConsoleSessionsService, { provide: APP_GUARD, useClass: ConsoleSessionGuard }],
})
export class ConsoleHttpModule {}
