import { Body } from '@nestjs/common';
import { CurrentProject } from '../projects/auth/auth.decorators.js';
import { ProjectController } from '../projects/auth/project-controller.decorator.js';
import { Operation } from '../common/http/operation.decorator.js';
import type { ProjectRef } from '../projects/project.types.js';
import { SubscriberTokens } from './auth/subscriber-tokens.js';
import { SubscriberTokenDto, SubscriberTokenResponseDto } from './dto/inbox.dto.js';

@ProjectController('v1/auth', 'Inbox')
export class SubscriberTokensController {
  constructor(private readonly tokens: SubscriberTokens) {}

  @Operation('POST /subscriber-token', [404, 422, 503], {
    summary: 'Mint a subscriber token (HS256, 1–24 h) that opens only that subscriber’s inbox',
    description:
      'The subscriber must exist (404 otherwise: create it with POST /v1/subscribers). The token stops working when it expires, when the subscriber’s ' +
      'tokens are revoked (POST /v1/subscribers/{id}/tokens/revoke), when the subscriber is deleted, or when the project is deleted (even if created again).',
  })
  async createSubscriberToken(
    @CurrentProject() project: ProjectRef,
    @Body() body: SubscriberTokenDto,
  ): Promise<SubscriberTokenResponseDto> {
    const ttlHours = body.ttl_hours ?? 2;
    const { token, expiresAt } = await this.tokens.issue(project, body.subscriber_id, ttlHours);
    return {
      token,
      subscriber_id: body.subscriber_id,
      project_id: project.id,
      expires_at: expiresAt.toISOString(),
      ttl_hours: ttlHours,
    };
  }
}
