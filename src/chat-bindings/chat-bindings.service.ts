import { Inject, Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service.js';
import { ApiError } from '../common/errors/api-error.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { type BindableChannel, bindableChat, CHAT_HINTS } from '../connectors/chat/chat-ids.js';
import type { Actor } from '../domain/actor.js';
import { ProjectsService } from '../projects/projects.service.js';
import { type ChatBindingRow, ChatBindingsRepository } from './chat-bindings.repository.js';

/**
 * Chat bindings (issue 18), the operator's side: which Telegram chats and Slack channels the
 * instance-wide bots may reach for a project. ChatAccessService enforces them.
 */
@Injectable()
export class ChatBindingsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: ChatBindingsRepository,
    private readonly projects: ProjectsService,
    private readonly audit: AuditService,
  ) {}

  /** Replaces the project's bindings on the channel; returns the chats now bound (canonical form). */
  async put(projectId: string, channel: string, chats: readonly string[], by: Actor): Promise<string[]> {
    const bindable = bindableChannel(channel);
    const canonical = chats.map((chat, i) => {
      const value = bindableChat(bindable, chat);
      if (value === undefined)
        throw ApiError.unprocessable('validation_failed', `chats.${i} must be ${CHAT_HINTS[bindable]}.`);
      return value;
    });
    await this.projects.get(projectId);
    const bound = await this.repository.replace(projectId, bindable, [...new Set(canonical)]);
    await this.audited('chat_binding.set', projectId, bindable, bound.length, by);
    return bound;
  }

  /** The project's bindings, and whether the instance enforces them (CHAT_BINDINGS_REQUIRED). */
  async list(projectId: string): Promise<{ required: boolean; bindings: ChatBindingRow[] }> {
    await this.projects.get(projectId);
    return { required: this.config.chat.bindingsRequired, bindings: await this.repository.list(projectId) };
  }

  /** Removes the project's bindings on the channel; returns how many there were. */
  async delete(projectId: string, channel: string, by: Actor): Promise<number> {
    const bindable = bindableChannel(channel);
    await this.projects.get(projectId);
    const removed = await this.repository.deleteChannel(projectId, bindable);
    await this.audited('chat_binding.deleted', projectId, bindable, removed, by);
    return removed;
  }

  /** The audit line of a change to a channel's bindings: how many chats it leaves or removed. */
  private audited(action: string, projectId: string, bindable: BindableChannel, chats: number, by: Actor) {
    return this.audit.record({ ...by, projectId, action, resource: `${projectId}/${bindable}`, metadata: { chats } });
  }
}

/** Only the channels with an instance-wide bot take bindings; the message says why the others need none. */
function bindableChannel(channel: string): BindableChannel {
  if (channel === 'telegram' || channel === 'slack') return channel;
  if (channel === 'discord') {
    throw ApiError.unprocessable(
      'validation_failed',
      'discord recipients are webhook URLs, which carry their own credential: they need no binding. Chat bindings are for telegram and slack, whose instance-wide bots every project shares.',
    );
  }
  throw ApiError.unprocessable(
    'validation_failed',
    'channel must be telegram or slack (the channels whose instance-wide bot every project shares).',
  );
}
