import { Injectable } from '@nestjs/common';
import { CHANNELS, type Channel } from '../domain/channels.js';
import { ConnectorRegistry } from '../connectors/connector-registry.js';
import type { ProjectRef } from '../projects/project.types.js';
import { ProjectProvidersRepository } from './project-providers.repository.js';

/** How one channel stands for one project (GET /v1/channels). Names only: never a setting or a secret. */
export interface ChannelStatus {
  allowed: boolean;
  configured: boolean;
  provider: string | null;
  ownAccount: boolean;
  fallbackProvider: string | null;
  /** Why /v1/send refuses the channel, with the variable to set; null when it is configured. */
  reason: string | null;
}

/**
 * notifyd's channel report: for every channel, whether the project lists it (`allowed`,
 * informational) and whether this instance delivers it (`configured`: /v1/send will not refuse
 * it), with the provider its messages go through. A client offers a channel when both are true.
 */
@Injectable()
export class ChannelReportService {
  constructor(
    private readonly registry: ConnectorRegistry,
    private readonly repository: ProjectProvidersRepository,
  ) {}

  async forProject(project: ProjectRef): Promise<Record<Channel, ChannelStatus>> {
    // The project's own accounts: provider names only (the row's sealed secrets stay unopened).
    const own = new Map((await this.repository.list(project.id)).map((row) => [row.channel, row.provider]));
    const listed = new Set(project.channels);
    const report = {} as Record<Channel, ChannelStatus>;
    for (const channel of CHANNELS) {
      const configured = this.registry.isConfigured(channel);
      const ownProvider = own.get(channel);
      report[channel] = {
        allowed: listed.has(channel),
        configured,
        provider: configured ? (ownProvider ?? this.registry.forChannel(channel)!.provider) : null,
        ownAccount: ownProvider !== undefined,
        // A project's own account goes without the instance's fallback (see the dispatcher).
        fallbackProvider:
          configured && ownProvider === undefined ? (this.registry.fallbackFor(channel)?.provider ?? null) : null,
        reason: this.registry.refusal(channel) ?? null,
      };
    }
    return report;
  }
}
