import { Body, Controller, Ip, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Operation } from '../../common/http/operation.decorator.js';
import {
  PreferenceCenterService,
  type PreferenceView,
} from '../../governance/preference-center/preference-center.service.js';
import { CurrentInbox, InboxAuth, type InboxPrincipal } from '../auth/inbox-auth.guard.js';
import { InboxPathDto } from '../dto/inbox.dto.js';
import { PutSubscriberPreferencesDto, SubscriberPreferencesDto } from '../dto/inbox-preferences.dto.js';

/**
 * The preference center for applications that draw their own page: the same channels × topics
 * and the same stored rows as the hosted page and the project-key preference routes, opened by
 * the subscriber's token (its own subscriber only) or the project key, and counted in the
 * project's rate limit like every inbox route.
 */
@ApiTags('Inbox')
@InboxAuth()
@Controller('v1/inbox/:subscriber_id/preferences')
export class InboxPreferencesController {
  constructor(private readonly center: PreferenceCenterService) {}

  @Operation('GET', [400, 404, 422], {
    summary: 'The subscriber’s channels × topics, each on or off, and a link to the hosted page',
  })
  async getInboxPreferences(
    @CurrentInbox() p: InboxPrincipal,
    @Param() _path: InboxPathDto,
  ): Promise<SubscriberPreferencesDto> {
    return this.present(await this.center.view(p.project, p.subscriberId));
  }

  @Operation('PUT', [400, 404, 422], {
    summary:
      'Switch channel × topic cells on or off (transactional topics refused); emits subscriber.preference_changed',
  })
  async putInboxPreferences(
    @CurrentInbox() p: InboxPrincipal,
    @Param() _path: InboxPathDto,
    @Body() body: PutSubscriberPreferencesDto,
    @Ip() ip: string,
  ): Promise<SubscriberPreferencesDto> {
    const view = await this.center.view(p.project, p.subscriberId);
    const by = { actor: p.via === 'subscriber' ? 'subscriber' : 'api_key', ip: ip ?? null };
    return this.present(await this.center.change(view, body.preferences, by));
  }

  private present(view: PreferenceView): SubscriberPreferencesDto {
    const { grid, project, subscriber } = view;
    return {
      subscriber_id: subscriber.id,
      channels: grid.channels,
      topics: grid.topics.map((t) => ({ id: t.id, label: t.label, transactional: t.transactional })),
      preferences: grid.cells.map((c) => ({
        channel: c.channel,
        topic: c.topic,
        enabled: c.enabled,
        switchable: c.switchable,
      })),
      page_url: this.center.pageUrl(project.id, subscriber.id),
    };
  }
}
