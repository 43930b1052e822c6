import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error.js';
import { ProjectsService } from '../../projects/projects.service.js';
import { SubscriberTokenVersions, type TokensChanged } from '../../subscribers/subscriber-token-versions.js';
import type { StreamConnection } from '../stream/sse-frame.js';
import type { TokenGeneration } from './subscriber-tokens.js';

/**
 * What opened a stream: a subscriber token (or its ticket) of a generation, or a project key,
 * kept as its SHA-256 (`hashKey`), which is what the key lookup itself uses: the secret is not
 * held for the life of the stream.
 */
export type StreamCredential = { generation: TokenGeneration } | { keyHash: string };

interface Watched {
  subscriberId: string;
  credential: StreamCredential;
}

/**
 * Ends the open inbox streams of this process that a subscriber token (or its ticket) opened,
 * once that token is no longer good: its tokens were revoked, the subscriber was deleted, or the
 * project was deleted (and perhaps created again); and those a project key opened, once that key
 * no longer authenticates (revoked after a rotation, or its project deleted), looked up by the
 * hash of the key (ProjectsService.byKeyHash), never the key itself. A REST request checks its token each time; a
 * stream is one request that can last for hours, so it is checked again whenever
 * SubscriberTokenVersions hears of a change (here at once, from other processes by signal). The
 * client's EventSource then reconnects, and its token is refused.
 */
@Injectable()
export class StreamRevocations implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('StreamRevocations');
  /** Project id → its watched streams. */
  private readonly watched = new Map<string, Map<StreamConnection, Watched>>();
  private unsubscribe?: () => void;

  constructor(
    private readonly versions: SubscriberTokenVersions,
    private readonly projects: ProjectsService,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.versions.onChange((changed) => void this.recheck(changed));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /** Watches a stream opened with `credential`; call the returned function when it closes. */
  watch(connection: StreamConnection, credential: StreamCredential): () => void {
    let streams = this.watched.get(connection.projectId);
    if (!streams) this.watched.set(connection.projectId, (streams = new Map()));
    streams.set(connection, { subscriberId: connection.subscriberId, credential });
    return () => {
      streams.delete(connection);
      if (streams.size === 0 && this.watched.get(connection.projectId) === streams)
        this.watched.delete(connection.projectId);
    };
  }

  get size(): number {
    let n = 0;
    for (const streams of this.watched.values()) n += streams.size;
    return n;
  }

  /**
   * One read of the project and one of the token versions concerned per project, and for streams a
   * project key opened one key-hash lookup per distinct key (the key cache answers repeats); a failed
   * read ends nothing.
   */
  private async recheck(changed: TokensChanged): Promise<void> {
    const projectIds = changed.projectId === undefined ? [...this.watched.keys()] : [changed.projectId];
    for (const projectId of projectIds) {
      const concerned = [...(this.watched.get(projectId) ?? [])].filter(
        ([, w]) => changed.subscriberId === undefined || w.subscriberId === changed.subscriberId,
      );
      if (!concerned.length) continue;
      try {
        const project = await this.projects.get(projectId).catch((err: unknown) => {
          if (err instanceof ApiError && err.getStatus() === 404) return undefined;
          throw err;
        });
        const byToken = concerned.filter(([, w]) => 'generation' in w.credential);
        const versions = await this.versions.currentOf(projectId, [...new Set(byToken.map(([, w]) => w.subscriberId))]);
        for (const [connection, w] of concerned) {
          const credential = w.credential;
          const good =
            'generation' in credential
              ? project?.tokenEpoch === credential.generation.epoch &&
                versions.get(w.subscriberId) === credential.generation.version
              : project !== undefined && (await this.projects.byKeyHash(credential.keyHash))?.id === projectId;
          if (!good) connection.end();
        }
      } catch (err) {
        this.logger.warn(
          `could not re-check the inbox streams of project ${projectId} after a token change: ${(err as Error).message}`,
        );
      }
    }
  }
}
