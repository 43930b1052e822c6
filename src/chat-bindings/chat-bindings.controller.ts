import { Body, Param } from '@nestjs/common';
import { AdminController, CurrentOperator, ReaderAllowed } from '../projects/auth/auth.decorators.js';
import { Operation } from '../common/http/operation.decorator.js';
import {
  ChatBindingListDto,
  ChatBindingsOfChannelDto,
  DeletedChatBindingsDto,
  PutChatBindingsDto,
} from './dto/chat-binding.dto.js';
import { presentChatBindingList } from './chat-binding.presenter.js';
import { ChatBindingsService } from './chat-bindings.service.js';
import type { Actor } from '../domain/actor.js';

@AdminController('v1/admin/projects/:id/chat-bindings', 'Admin: chat bindings')
export class ChatBindingsController {
  constructor(private readonly bindings: ChatBindingsService) {}

  @Operation('PUT /:channel', [404, 422], {
    summary:
      'Set the chats (Telegram) or channels (Slack) the instance’s bot may reach for a project; replaces the channel’s list',
  })
  async putChatBindings(
    @Param('id') id: string,
    @Param('channel') channel: string,
    @Body() body: PutChatBindingsDto,
    @CurrentOperator() by: Actor,
  ): Promise<ChatBindingsOfChannelDto> {
    return { project_id: id, channel, chats: await this.bindings.put(id, channel, body.chats, by) };
  }

  @Operation('GET', [404], 'The chats the instance’s Telegram and Slack bots may reach for a project')
  @ReaderAllowed()
  async listChatBindings(@Param('id') id: string): Promise<ChatBindingListDto> {
    return presentChatBindingList(id, await this.bindings.list(id));
  }

  @Operation('DELETE /:channel', [404, 422], {
    summary: 'Unbind every chat of a channel from a project: the instance’s bot refuses its sends there again',
  })
  async deleteChatBindings(
    @Param('id') id: string,
    @Param('channel') channel: string,
    @CurrentOperator() by: Actor,
  ): Promise<DeletedChatBindingsDto> {
    return { success: true, removed: await this.bindings.delete(id, channel, by) };
  }
}
