import { Global, Module } from '@nestjs/common';
import { GovernanceService } from './governance.service.js';

@Global()
@Module({ providers: [GovernanceService], exports: [GovernanceService] })
export class GovernanceModule {}
