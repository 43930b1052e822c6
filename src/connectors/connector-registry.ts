import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { CHANNELS, type Channel } from '../config/sections/connectors.config.js';
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

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    for (const channel of CHANNELS) this.register(new LogConnector(channel, this.config.connectors.logBatchMax), 'built-in log');
    for (const wrapper of this.discovery.getProviders()) {
      const { instance, metatype } = wrapper;
      if (!instance || !metatype || !Reflect.getMetadata(CONNECTOR_METADATA, metatype)) continue;
      this.register(instance as Connector, metatype.name);
    }
    for (const channel of CHANNELS) {
      const provider = this.config.connectors.providers[channel];
      if (!provider) continue;
      const connector = this.available.get(key(channel, provider));
      if (!connector) {
        const choices = [...this.available.values()].filter((c) => c.channel === channel).map((c) => c.provider);
        throw new Error(
          `${PROVIDER_VARIABLE[channel]}=${provider}: no connector implements ${channel}/${provider}. ` +
            `Available for ${channel}: ${choices.join(', ')}. Fix the variable, or register a connector for it (docs/CONNECTORS.md).`,
        );
      }
      await connector.validateConfiguration?.();
      this.selected.set(channel, connector);
    }
    this.logger.log(
      `channels: ${[...this.selected].map(([channel, c]) => `${channel}→${c.provider}`).join(', ') || 'none configured'}`,
    );
  }

  private register(connector: Connector, source: string): void {
    if (!CHANNELS.includes(connector.channel)) {
      throw new Error(`Connector ${source} declares unknown channel '${connector.channel}'; use one of ${CHANNELS.join(', ')}.`);
    }
    if (!Number.isInteger(connector.batchMax) || connector.batchMax < 1) {
      throw new Error(`Connector ${source} (${connector.channel}/${connector.provider}) must declare batchMax ≥ 1.`);
    }
    const k = key(connector.channel, connector.provider);
    if (this.available.has(k)) {
      throw new Error(`Two connectors claim ${connector.channel}/${connector.provider} (one is ${source}); provider names must be unique per channel.`);
    }
    this.available.set(k, connector);
  }

  /** The connector configured for a channel, or undefined when the channel is not configured. */
  forChannel(channel: Channel): Connector | undefined {
    return this.selected.get(channel);
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
