import { Controller, Inject, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiError } from '../common/errors/api-error.js';
import { Operation } from '../common/http/operation.decorator.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { ProjectsService } from '../projects/projects.service.js';
import { VapidKeyQueryDto, VapidPublicKeyDto } from './dto/push-token.dto.js';

/** Public: a web page needs the VAPID key to subscribe before it holds any credential. */
@ApiTags('Push')
@Controller('v1/push')
export class VapidKeyController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly projects: ProjectsService,
  ) {}

  @Operation('GET /vapid-public-key', [404, 422, 503], 'The VAPID public key browsers subscribe with (no key needed)')
  async getVapidPublicKey(@Query() query: VapidKeyQueryDto): Promise<VapidPublicKeyDto> {
    if (query.project !== undefined) await this.projects.get(query.project);
    const webPush = this.config.pushProviders.webPush;
    if (!webPush)
      throw ApiError.unavailable(
        'push_not_configured',
        'Web push is not configured: set VAPID_PRIVATE_KEY and VAPID_SUBJECT (npx web-push generate-vapid-keys) and restart.',
      );
    return { public_key: webPush.publicKey };
  }
}
