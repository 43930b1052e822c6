import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { CHANNELS, type Channel } from '../domain/channels.js';
import { CONNECTOR_METADATA } from './connector.decorator.js';
import type { Connector } from './connector.js';
import { LogConnector } from './log/log.connector.js';

const PROVIDER_VARIABLE: Record<Channel, string> = {
  email: 'EMAIL_PROVIDER',
  sms: 'SMS_PROVIDER',
  whatsapp: 'WHATSAPP_PROVIDER',
  push: 'PUSH_PROVIDER',
  in_app: 'IN_APP_PROVIDER',
  telegram: 'TELEGRAM_PROVIDER',
  slack: 'SLACK_PROVIDER',
  discord: 'DISCORD_PROVIDER',
};

/**
 * Finds every @NotifyConnector() at boot and picks the one configured for each channel.
 * Start-up fails on two connectors claiming the same channel × provider, and on a configured
 * provider that no connector implements, with a message naming the variable and the choices.
 */
@Injectable()
export class ConnectorRegistry implements OnModuleInit {
  private readonly logger = new Logger(ConnectorRegistry.name);
  private readonly available = new Map<string, Connector>();
  private readonly selected = new Map<Channel, Connector>();
  private readonly fallbacks = new Map<Channel, Connector>();

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    for (const channel of CHANNELS)
      this.register(
        new LogConnector(channel, this.config.connectors.logBatchMax, this.config.connectors.logPrint),
        'built-in log',
      );
    for (const wrapper of this.discovery.getProviders()) {
      const { instance, metatype } = wrapper;
      // The instance's own class, so that a connector made by a factory provider is found too.
      const type = (instance as object | undefined)?.constructor ?? metatype;
      if (!instance || !type || !Reflect.getMetadata(CONNECTOR_METADATA, type)) continue;
      this.register(instance as Connector, type.name);
    }
    for (const channel of CHANNELS) {
      const provider = this.config.connectors.providers[channel];
      if (!provider) continue;
      this.selected.set(channel, await this.resolve(channel, provider, PROVIDER_VARIABLE[channel]));
      const fallback = this.config.failover.fallbacks[channel];
      if (!fallback) continue;
      const variable = `${PROVIDER_VARIABLE[channel].replace('_PROVIDER', '')}_FALLBACK_PROVIDER`;
      if (fallback === provider)
        throw new Error(`${variable}=${fallback} is the primary provider itself; name another provider, or unset it.`);
      this.fallbacks.set(channel, await this.resolve(channel, fallback, variable));
    }
    for (const [channel, fallback] of Object.entries(this.config.failover.fallbacks)) {
      if (fallback && !this.selected.has(channel as Channel)) {
        throw new Error(
          `${channel.toUpperCase()}_FALLBACK_PROVIDER=${fallback} is set but ${PROVIDER_VARIABLE[channel as Channel]} is not: a fallback needs a primary.`,
        );
      }
    }
    this.logger.log(
      `channels: ${[...this.selected].map(([channel, c]) => `${channel}→${c.provider}${this.fallbacks.has(channel) ? ` (fallback ${this.fallbacks.get(channel)!.provider})` : ''}`).join(', ') || 'none configured'}`,
    );
  }

  /** The connector named by `variable` for a channel, with its configuration checked. */
  private async resolve(channel: Channel, provider: string, variable: string): Promise<Connector> {
    const connector = this.available.get(key(channel, provider));
    if (!connector) {
      const choices = [...this.available.values()].filter((c) => c.channel === channel).map((c) => c.provider);
      throw new Error(
        `${variable}=${provider}: no connector implements ${channel}/${provider}. ` +
          `Available for ${channel}: ${choices.join(', ')}. Fix the variable, or register a connector for it (docs/CONNECTORS.md).`,
      );
    }
    await connector.validateConfiguration?.();
    return connector;
  }

  private register(connector: Connector, source: string): void {
    if (!CHANNELS.includes(connector.channel)) {
      throw new Error(
        `Connector ${source} declares unknown channel '${connector.channel}'; use one of ${CHANNELS.join(', ')}.`,
      );
    }
    if (!Number.isInteger(connector.batchMax) || connector.batchMax < 1) {
      throw new Error(`Connector ${source} (${connector.channel}/${connector.provider}) must declare batchMax ≥ 1.`);
    }
    const k = key(connector.channel, connector.provider);
    if (this.available.has(k)) {
      throw new Error(
        `Two connectors claim ${connector.channel}/${connector.provider} (one is ${source}); provider names must be unique per channel.`,
      );
    }
    this.available.set(k, connector);
  }

  /** The connector configured for a channel, or undefined when the channel is not configured. */
  forChannel(channel: Channel): Connector | undefined {
    return this.selected.get(channel);
  }

  /** The channel's fallback provider (`<CHANNEL>_FALLBACK_PROVIDER`), if one is configured. */
  fallbackFor(channel: Channel): Connector | undefined {
    return this.fallbacks.get(channel);
  }

  /** A registered connector by channel and provider name, whether selected or not. */
  connector(channel: Channel, provider: string): Connector | undefined {
    return this.available.get(key(channel, provider));
  }

  /** Providers a project may configure with its own account on this channel. */
  perProjectProviders(channel: Channel): string[] {
    return [...this.available.values()]
      .filter((c) => c.channel === channel && c.projectSettings && c.forProject)
      .map((c) => c.provider);
  }

  isConfigured(channel: Channel): boolean {
    return this.selected.has(channel);
  }

  /** Why a channel cannot be delivered, with the fix; undefined when it can. */
  refusal(channel: Channel): string | undefined {
    if (this.selected.has(channel)) return undefined;
    return `${channel} connector not configured: set ${PROVIDER_VARIABLE[channel]}`;
  }

  configuredChannels(): Channel[] {
    return [...this.selected.keys()];
  }
}

const key = (channel: string, provider: string) => `${channel}/${provider}`;
