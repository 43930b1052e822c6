import { Body, Param } from '@nestjs/common';
import { CurrentProject } from '../projects/auth/auth.decorators.js';
import { ProjectController } from '../projects/auth/project-controller.decorator.js';
import { Operation } from '../common/http/operation.decorator.js';
import { SuccessDto } from '../projects/dto/project.dto.js';
import type { ProjectRef } from '../projects/project.types.js';
import { PushTokenListDto, RegisterPushTokenDto, RegisterPushTokenResponseDto } from './dto/push-token.dto.js';
import { presentPushToken } from './push-token.presenter.js';
import { PushTokensService } from './push-tokens.service.js';

@ProjectController('v1/push-tokens', 'Push')
export class PushTokensController {
  constructor(private readonly tokens: PushTokensService) {}

  @Operation('POST', [400, 404, 422], {
    summary:
      'Register a subscriber device: a browser PushSubscription, an FCM token or an APNs token (same token again refreshes it)',
  })
  async registerPushToken(
    @CurrentProject() project: ProjectRef,
    @Body() body: RegisterPushTokenDto,
  ): Promise<RegisterPushTokenResponseDto> {
    const { row, created } = await this.tokens.register(project.id, body);
    return { success: true, id: row.id, created, token: presentPushToken(row) };
  }

  @Operation('GET /subscriber/:subscriber_id', [], "List a subscriber's devices, most recently used first")
  async listPushTokens(
    @CurrentProject() project: ProjectRef,
    @Param('subscriber_id') subscriberId: string,
  ): Promise<PushTokenListDto> {
    const rows = await this.tokens.list(project.id, subscriberId);
    return { tokens: rows.map(presentPushToken) };
  }

  @Operation('DELETE /:id', [], 'Delete a device (success also when it was already gone)')
  async deletePushToken(@CurrentProject() project: ProjectRef, @Param('id') id: string): Promise<SuccessDto> {
    await this.tokens.delete(project.id, id);
    return { success: true };
  }
}
