import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../common/errors/api-error.js';
import { startEventStream } from '../../common/http/event-stream.js';
import { SignalsService } from '../../database/signals/signals.service.js';
import { JOBS_DUE_TOPIC } from '../../jobs/worker/worker-wakeup.js';
import { LANES_CHANGED } from '../../pacing/pacing.service.js';

/** Open admin streams per process: each holds a socket; operators' consoles are few. */
export const ADMIN_EVENTS_MAX_STREAMS = 50;
/** Signals are coalesced: a stream hears each kind of change at most once per this. */
const COALESCE_MS = 1_000;
/** A comment line this often keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 25_000;
/** What EventSource waits before reconnecting. */
const RETRY_MS = 3_000;

export type AdminEvent = 'lanes' | 'digest';

/**
 * The operator's "something changed, read it again" stream (`GET /v1/admin/events`), fed by the
 * LISTEN/NOTIFY signals every replica already receives: `lanes.changed` (a pause written or
 * lifted) → `lanes` and `digest`; `jobs.due` (jobs enqueued or retried) → `digest`; a listener
 * resync → both. Events carry no data beyond the lane keys: readers reload through the API,
 * so a stream never shows what its key could not read.
 */
@Injectable()
export class AdminEventsService implements OnModuleInit, OnApplicationShutdown {
  private readonly streams = new Set<ServerResponse>();
  private readonly pending = new Map<AdminEvent, Set<string>>();
  private flushTimer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private unsubscribe: Array<() => void> = [];
  private nextId = 0;

  constructor(private readonly signals: SignalsService) {}

  onModuleInit(): void {
    this.unsubscribe = [
      this.signals.subscribe(LANES_CHANGED, {
        received: (lane) => {
          this.queue('lanes', lane);
          this.queue('digest');
        },
        resync: () => this.queueAll(),
      }),
      this.signals.subscribe(JOBS_DUE_TOPIC, {
        received: () => this.queue('digest'),
        resync: () => this.queue('digest'),
      }),
    ];
  }

  onApplicationShutdown(): void {
    for (const off of this.unsubscribe) off();
    clearTimeout(this.flushTimer);
    clearInterval(this.heartbeat);
    for (const raw of this.streams) raw.end();
    this.streams.clear();
  }

  get open(): number {
    return this.streams.size;
  }

  /** Takes over the reply's socket as an event stream; 429 too_many_streams past the bound. */
  attach(request: FastifyRequest, reply: FastifyReply): void {
    if (this.streams.size >= ADMIN_EVENTS_MAX_STREAMS) {
      throw new ApiError(
        429,
        'too_many_streams',
        `This server already holds ${ADMIN_EVENTS_MAX_STREAMS} admin event streams: close a console tab and retry.`,
      );
    }
    reply.hijack();
    const raw = startEventStream(reply, RETRY_MS);
    this.streams.add(raw);
    this.heartbeat ??= setInterval(() => this.broadcast(': ping\n\n'), HEARTBEAT_MS).unref();
    const closed = () => {
      this.streams.delete(raw);
      if (this.streams.size === 0 && this.heartbeat) {
        clearInterval(this.heartbeat);
        this.heartbeat = undefined;
      }
    };
    request.raw.on('close', closed);
    raw.on('close', closed);
    raw.on('error', closed);
  }

  private queueAll(): void {
    this.queue('lanes');
    this.queue('digest');
  }

  private queue(event: AdminEvent, key?: string): void {
    if (this.streams.size === 0) return;
    const keys = this.pending.get(event) ?? new Set<string>();
    if (key) keys.add(key);
    this.pending.set(event, keys);
    this.flushTimer ??= setTimeout(() => this.flush(), COALESCE_MS).unref();
  }

  private flush(): void {
    this.flushTimer = undefined;
    for (const [event, keys] of this.pending) {
      this.nextId += 1;
      this.broadcast(
        `id: ${this.nextId}\nevent: ${event}\ndata: ${JSON.stringify(event === 'lanes' ? { lanes: [...keys].slice(0, 100) } : {})}\n\n`,
      );
    }
    this.pending.clear();
  }

  /** A reader that stopped reading is dropped once its buffer passes 64 KB: it reconnects. */
  private broadcast(frame: string): void {
    for (const raw of this.streams) {
      if (raw.destroyed || raw.writableEnded) continue;
      if (raw.writableLength > 65_536) {
        raw.destroy();
        continue;
      }
      raw.write(frame);
    }
  }
}
