import { Body, Ip, Param, Res } from '@nestjs/common';
import { ApiNoContentResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentProject } from '../projects/auth/auth.decorators.js';
import { ProjectController } from '../projects/auth/project-controller.decorator.js';
import { rateLimited } from '../projects/auth/project-rate-limit.guard.js';
import { Operation } from '../common/http/operation.decorator.js';
import type { ProjectRef } from '../projects/project.types.js';
import {
  OwnerPathDto,
  PutTelegramBotDto,
  PutTelegramDestinationDto,
  TelegramBotResponseDto,
  TelegramDestinationResponseDto,
  TelegramLinkDto,
  TelegramLinkResponseDto,
  TelegramLookupDto,
  TelegramLookupResponseDto,
  TelegramOwnerResponseDto,
} from './dto/telegram-route.dto.js';
import { TelegramLinksService } from './telegram-links.service.js';
import { TelegramRoutesService } from './telegram-routes.service.js';

/** Per-user Telegram bots (notifyd 0.x §2.15): an owner's bot, its chat, pairing and lookup. */
@ProjectController('v1/telegram', 'Telegram routes')
export class TelegramRoutesController {
  constructor(
    private readonly routes: TelegramRoutesService,
    private readonly links: TelegramLinksService,
  ) {}

  @Operation('POST /lookup', [422], 'The verified chats of up to 100 owners, with the route id to send through')
  async lookupTelegramRoutes(
    @CurrentProject() project: ProjectRef,
    @Body() body: TelegramLookupDto,
  ): Promise<TelegramLookupResponseDto> {
    return { data: await this.routes.lookup(project.id, body.owners) };
  }

  @Operation('GET /:owner', [422], "An owner's bot and chat (null when none); never the token")
  async getTelegramRoute(
    @CurrentProject() project: ProjectRef,
    @Param() path: OwnerPathDto,
  ): Promise<TelegramOwnerResponseDto> {
    return { data: await this.routes.view(project.id, path.owner) };
  }

  @Operation('PUT /:owner', [400, 409, 422, 502, 503], {
    summary: "Set an owner's own bot: token checked (getMe), webhook pointed at notifyd, token stored encrypted",
    description:
      'Refuses the instance bot. 400 when Telegram does not accept the token; 409 when the bot already sends its updates to another webhook; 502 when Telegram cannot be reached or refuses the webhook; 503 without NOTIFYD_SECRET_KEY. Another bot than before drops the paired chat.',
  })
  async putTelegramBot(
    @CurrentProject() project: ProjectRef,
    @Param() path: OwnerPathDto,
    @Body() body: PutTelegramBotDto,
    @Ip() ip: string,
  ): Promise<TelegramBotResponseDto> {
    return {
      data: await this.routes.putBot({ projectId: project.id, ip }, path.owner, body.bot_token, body.webhook_base),
    };
  }

  @Operation('DELETE /:owner', [404, 422], {
    status: 204,
    summary: "Remove an owner's bot (its webhook removed, best effort), its chat and link tokens",
  })
  @ApiNoContentResponse({ description: 'Removed' })
  async deleteTelegramBot(
    @CurrentProject() project: ProjectRef,
    @Param() path: OwnerPathDto,
    @Ip() ip: string,
  ): Promise<void> {
    await this.routes.deleteBot({ projectId: project.id, ip }, path.owner);
  }

  @Operation('PUT /:owner/destination', [400, 404, 422, 502, 503], {
    summary: "Set an owner's chat directly (getChat resolves it; a topic only in a forum supergroup)",
  })
  async putTelegramDestination(
    @CurrentProject() project: ProjectRef,
    @Param() path: OwnerPathDto,
    @Body() body: PutTelegramDestinationDto,
  ): Promise<TelegramDestinationResponseDto> {
    return { data: await this.routes.putDestination(project.id, path.owner, body.address, body.telegram_thread_id) };
  }

  @Operation('DELETE /:owner/destination', [422], {
    status: 204,
    summary: "Remove an owner's chat (204 also when there was none)",
  })
  @ApiNoContentResponse({ description: 'Removed (or there was none)' })
  async deleteTelegramDestination(@CurrentProject() project: ProjectRef, @Param() path: OwnerPathDto): Promise<void> {
    await this.routes.deleteDestination(project.id, path.owner);
  }

  @Operation('POST /:owner/link', [404, 409, 422, 429], {
    summary: 'A one-time deep link (15 minutes) that pairs the chat where the user starts the bot',
    description:
      'One active token per owner: a new one replaces the last. At most one a minute per owner (429 with Retry-After).',
  })
  async linkTelegramChat(
    @CurrentProject() project: ProjectRef,
    @Param() path: OwnerPathDto,
    @Body() body: TelegramLinkDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TelegramLinkResponseDto> {
    const made = await this.links.link(project.id, path.owner, body.kind ?? 'private');
    if ('retryAfterMs' in made) {
      const seconds = Math.max(1, Math.ceil(made.retryAfterMs / 1000));
      throw rateLimited(
        reply,
        seconds,
        `A link token was made less than a minute ago for this owner; the last one still works, or ask again in ${seconds} s.`,
        'link_too_soon',
      );
    }
    return { data: made };
  }
}
