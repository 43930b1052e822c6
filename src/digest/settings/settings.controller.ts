import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { AdminAuth } from '../../common/auth/auth.decorators.js';
import { SettingsService } from './settings.service.js';
import { type EffectiveSettings, effectiveSettings } from './settings.types.js';

const schema = z.toJSONSchema(effectiveSettings, { io: 'output', target: 'openapi-3.0' }) as Record<string, unknown>;

@ApiTags('Admin: digest')
@Controller('v1/admin/config')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  @AdminAuth({ readers: true })
  @ApiOperation({
    operationId: 'getConfig',
    summary: 'The effective configuration, secrets redacted: providers and fallbacks per channel, lane rates and bursts, pause defaults, provider webhooks and their last event, PUBLIC_URL, retention',
  })
  @ApiOkResponse({ schema })
  getConfig(): Promise<EffectiveSettings> {
    return this.settings.effective();
  }
}
