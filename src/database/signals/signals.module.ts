import { Global, Module } from '@nestjs/common';
import { SignalsService } from './signals.service.js';

/** LISTEN/NOTIFY signals for every module (DESIGN.md §5); see SignalsService for the API. */
@Global()
@Module({ providers: [SignalsService], exports: [SignalsService] })
export class SignalsModule {}
