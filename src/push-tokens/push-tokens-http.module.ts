import { Module } from '@nestjs/common';
import { PushTokensController } from './push-tokens.controller.js';
import { VapidKeyController } from './vapid-key.controller.js';
import { PushTokensModule } from './push-tokens.module.js';
import { ProjectsModule } from '../projects/projects.module.js';

/** PushTokensModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({ imports: [ProjectsModule, PushTokensModule], controllers: [PushTokensController, VapidKeyController] })
export class PushTokensHttpModule {}
