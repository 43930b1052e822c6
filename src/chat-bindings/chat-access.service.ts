import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { Channel } from '../domain/channels.js';
import { ConnectorRegistry } from '../connectors/connector-registry.js';
import { ProjectProvidersService } from '../project-providers/project-providers.service.js';
import { ChatBindingsRepository, keyOf } from './chat-bindings.repository.js';

/** A recipient a send asks for, and where the caller gave it (`to`, a subscriber's field), for the message. */
export interface ChatTarget {
  channel: Channel;
  recipient: string;
  field: string;
}

/** A claimed job, as the worker asks about it. */
export interface ChatJob {
  id: string;
  projectId: string;
  channel: Channel;
  recipient: string;
}

/** What the worker does with a job whose chat is not bound: fail it, or (bindings unreadable) put it back. */
export type ChatRefusal = { fail: string } | { defer: string };

/** Unbound targets named in one refusal; the rest are counted. */
const NAMED_MAX = 5;

/**
 * Chat bindings enforced (issue 18): the instance-wide Telegram and Slack bots reach only the
 * chats an operator bound to the sending project. Checked at the door (send, batch, send-test:
 * a 422 before anything is queued) and again by the worker before the provider call (a binding
 * removed after the send, and any way in that skipped the door). A project with its own bot on
 * the channel, and recipients that carry their own credential (webhook URLs), are not checked.
 */
@Injectable()
export class ChatAccessService {
  private readonly logger = new Logger(ChatAccessService.name);
  /** CHAT_BINDINGS_REQUIRED: false turns every check off. */
  private readonly required: boolean;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly registry: ConnectorRegistry,
    private readonly repository: ChatBindingsRepository,
    private readonly providers: ProjectProvidersService,
  ) {
    this.required = config.chat.bindingsRequired;
  }

  /** Whether sends on these channels can need a binding at all (so a caller may skip building targets). */
  applies(channels: readonly Channel[]): boolean {
    return (
      this.required &&
      channels.some((c) => this.registry.forChannel(c)?.boundChat || this.registry.fallbackFor(c)?.boundChat)
    );
  }

  /** Throws 422 chat_not_bound when a target goes through an instance bot to a chat not bound to the project. */
  async assertBound(projectId: string, targets: readonly ChatTarget[]): Promise<void> {
    const needed = this.needingBinding(targets);
    if (needed.length === 0) return;
    const [own, bound] = await Promise.all([
      this.providers.ownChannels(projectId, [...new Set(needed.map((n) => n.channel))]),
      this.repository.boundAmong(needed.map((n) => ({ projectId, channel: n.channel, chat: n.chat }))),
    ]);
    const unbound = needed.filter(
      (n) => !own.has(n.channel) && !bound.has(keyOf({ projectId, channel: n.channel, chat: n.chat })),
    );
    if (unbound.length === 0) return;
    const first = unbound[0];
    const others =
      unbound.length > 1
        ? ` (and ${unbound.length - 1} more: ${unbound
            .slice(1, NAMED_MAX)
            .map((u) => `${u.field} ${u.channel} '${u.chat}'`)
            .join(', ')}${unbound.length > NAMED_MAX ? ', …' : ''})`
        : '';
    throw ApiError.unprocessable(
      'chat_not_bound',
      `${first.field}: ${notBound(projectId, first.channel, first.chat)}${others}. ${fix(projectId, first.channel)}`,
      {
        unbound: unbound.slice(0, NAMED_MAX).map((u) => ({ field: u.field, channel: u.channel, chat: u.chat })),
      },
    );
  }

  /**
   * The worker's check, one read per claimed batch: a refusal for each job that would go through
   * an instance bot to a chat not bound to its project. Jobs of projects with their own bot are
   * the caller's to leave out (it knows them from the batch's own connectors).
   */
  async refusals(jobs: readonly ChatJob[]): Promise<Map<string, ChatRefusal>> {
    const result = new Map<string, ChatRefusal>();
    const needed = jobs.flatMap((job) => {
      const chat = this.chatOf(job.channel, job.recipient);
      return chat === undefined ? [] : [{ job, key: { projectId: job.projectId, channel: job.channel, chat } }];
    });
    if (needed.length === 0) return result;
    let bound: Set<string>;
    try {
      bound = await this.repository.boundAmong(needed.map((n) => n.key));
    } catch (err) {
      // Never sent unchecked: back to the queue until the bindings can be read.
      this.logger.warn(`chat bindings not read: ${(err as Error).message}`);
      for (const { job } of needed)
        result.set(job.id, { defer: `chat bindings unreadable: ${(err as Error).message}` });
      return result;
    }
    for (const { job, key } of needed) {
      if (!bound.has(keyOf(key)))
        result.set(job.id, {
          fail: `${notBound(key.projectId, key.channel, key.chat)}. ${fix(key.projectId, key.channel)}`,
        });
    }
    return result;
  }

  private needingBinding(targets: readonly ChatTarget[]): (ChatTarget & { chat: string })[] {
    return targets.flatMap((t) => {
      const chat = this.chatOf(t.channel, t.recipient);
      return chat === undefined ? [] : [{ ...t, chat }];
    });
  }

  /** The chat to be bound when the channel's instance connector (or its fallback) shares one credential across projects. */
  private chatOf(channel: Channel, recipient: string): string | undefined {
    if (!this.required) return undefined;
    return (
      this.registry.forChannel(channel)?.boundChat?.(recipient) ??
      this.registry.fallbackFor(channel)?.boundChat?.(recipient)
    );
  }
}

const notBound = (projectId: string, channel: string, chat: string) =>
  `${channel} chat '${chat.slice(0, 100)}' is not bound to project '${projectId}', and the instance's ${channel} bot posts only to chats an operator bound to the sending project`;

const fix = (projectId: string, channel: string) =>
  `An operator binds it with PUT /v1/admin/projects/${projectId}/chat-bindings/${channel} {"chats": [...]}, or gives the project its own bot with PUT /v1/admin/projects/${projectId}/providers/${channel}.`;
