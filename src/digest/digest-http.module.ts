import { Module } from '@nestjs/common';
import { DigestController } from './digest.controller.js';
import { DigestModule } from './digest.module.js';
import { SettingsController } from './settings/settings.controller.js';

/** DigestModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({ imports: [DigestModule], controllers: [DigestController, SettingsController] })
export class DigestHttpModule {}
