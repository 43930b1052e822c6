import { Injectable, Logger } from '@nestjs/common';
import type { Channel } from '../domain/channels.js';
import { canonicalTelegramChat } from '../connectors/chat/chat-ids.js';
import type { Connector, OutboundMessage } from '../connectors/connector.js';
import { ConnectorRegistry } from '../connectors/connector-registry.js';
import type { Lane } from '../domain/lane.js';
import { RouteSecrets } from './route-secrets.js';
import type { RouteForSend } from './telegram-route.types.js';
import { TelegramRoutesRepository } from './telegram-routes.repository.js';
import { isUuid } from '../domain/ids.js';

/** A claimed job, as far as routing is concerned. */
export interface RoutableJob {
  id: string;
  projectId: string;
  channel: Channel;
  recipient: string;
  payload: { chat?: { telegram_route_id?: string } };
}

/** How the worker sends a routed job: through the route's bot, or not at all (fail), or later (defer). */
export type RouteVerdict = { connector: Connector; lane: Lane } | { fail: string } | { defer: string };

/** Pacing and 429 pauses of routed sends: one lane per project, apart from the instance's bot. */
export const routeLane = (projectId: string): Lane => ({ channel: 'telegram', provider: 'telegram-route', projectId });

/** The route a job names, if it is a Telegram job with chat.telegram_route_id. */
export function routeIdOf(job: Pick<RoutableJob, 'channel' | 'payload'>): string | undefined {
  return job.channel === 'telegram' ? job.payload.chat?.telegram_route_id : undefined;
}

/**
 * The worker's side of per-user bots (notifyd 0.x): a job with chat.telegram_route_id goes
 * through that route's bot (the Telegram chat connector with the route's token) to the route's
 * verified chat, in the route's forum topic if it has one. The route is read by (id, project)
 * once per batch. Any problem fails the job permanently: it never falls back to the instance's
 * bot, which would post as someone else.
 */
@Injectable()
export class TelegramRouteConnectors {
  private readonly logger = new Logger(TelegramRouteConnectors.name);

  constructor(
    private readonly repository: TelegramRoutesRepository,
    private readonly secrets: RouteSecrets,
    private readonly registry: ConnectorRegistry,
  ) {}

  /** A verdict for each routed job of the batch (jobs without a route are not in the map). */
  async forJobs(jobs: readonly RoutableJob[]): Promise<Map<string, RouteVerdict>> {
    const verdicts = new Map<string, RouteVerdict>();
    const routed = jobs.flatMap((job) => {
      const routeId = routeIdOf(job);
      return routeId === undefined ? [] : [{ job, routeId }];
    });
    if (routed.length === 0) return verdicts;
    let routes: Map<string, RouteForSend>;
    try {
      const keys = routed
        .filter((r) => isUuid(r.routeId))
        .map((r) => ({ routeId: r.routeId, projectId: r.job.projectId }));
      routes = new Map((await this.repository.routesForSend(keys)).map((r) => [`${r.projectId}/${r.id}`, r]));
    } catch (err) {
      for (const { job } of routed)
        verdicts.set(job.id, { defer: `telegram routes unreadable: ${(err as Error).message}` });
      return verdicts;
    }
    const base = this.registry.connector('telegram', 'telegram');
    // One connector per route for the batch: its token is opened once, not once per job.
    const connectors = new Map<string, Connector>();
    for (const { job, routeId } of routed) {
      const route = routes.get(`${job.projectId}/${routeId.toLowerCase()}`);
      verdicts.set(job.id, this.verdict(job, routeId, route, base, connectors));
    }
    return verdicts;
  }

  private verdict(
    job: RoutableJob,
    routeId: string,
    route: RouteForSend | undefined,
    base: Connector | undefined,
    built: Map<string, Connector>,
  ): RouteVerdict {
    const named = `chat.telegram_route_id '${routeId}'`;
    if (!route)
      return {
        fail: `${named} is not a Telegram route of this project (removed, or never made): PUT /v1/telegram/:owner makes one`,
      };
    if (!route.address || !route.verified)
      return {
        fail: `${named} has no verified chat: pair one with POST /v1/telegram/${route.owner}/link or PUT /v1/telegram/${route.owner}/destination`,
      };
    if (canonicalTelegramChat(job.recipient) !== route.address) {
      return {
        fail: `to '${job.recipient.slice(0, 40)}' is not the chat of ${named}; send to the address POST /v1/telegram/lookup returns`,
      };
    }
    if (!base?.forProject) return { fail: 'the Telegram chat connector is not available in this build' };
    const known = built.get(route.id);
    if (known) return { connector: known, lane: routeLane(job.projectId) };
    let token: string;
    try {
      token = this.secrets.open(route.projectId, route.owner, 'bot_token', route.botTokenSealed);
    } catch (err) {
      this.logger.error(`telegram route ${route.id}: bot token unreadable: ${(err as Error).message}`);
      return {
        fail: `${named}: the bot token cannot be read with the configured keys (${(err as Error).message}); the owner sets the bot again with PUT /v1/telegram/${route.owner}`,
      };
    }
    const connector = inTopic(base.forProject({ bot_token: token }), route.threadId);
    built.set(route.id, connector);
    return { connector, lane: routeLane(job.projectId) };
  }
}

/** The route's forum topic, when it has one, replaces the message's own. */
function inTopic(connector: Connector, threadId: string | null): Connector {
  if (!threadId) return connector;
  const withTopic = (m: OutboundMessage): OutboundMessage => {
    const payload = m.payload as { chat?: Record<string, unknown> };
    return { ...m, payload: { ...payload, chat: { ...payload.chat, telegram_thread_id: threadId } } };
  };
  return {
    channel: connector.channel,
    provider: connector.provider,
    batchMax: connector.batchMax,
    send: (messages) => connector.send(messages.map(withTopic)),
  };
}
