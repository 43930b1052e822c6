import { Global, Module } from '@nestjs/common';
import { PacingService } from './pacing.service.js';

@Global()
@Module({ providers: [PacingService], exports: [PacingService] })
export class PacingModule {}
