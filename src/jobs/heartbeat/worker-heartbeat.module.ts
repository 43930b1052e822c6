import { Module } from '@nestjs/common';
import { WorkerHeartbeat } from './worker-heartbeat.service.js';
import { WorkerHeartbeats } from './worker-heartbeats.js';

/**
 * Worker heartbeats: the beat of each worker process (WorkerHeartbeat) and their reading
 * (WorkerHeartbeats, exported to the digest, health and metrics). A module of its own so that
 * those readers need not import the whole queue.
 */
@Module({ providers: [WorkerHeartbeat, WorkerHeartbeats], exports: [WorkerHeartbeats, WorkerHeartbeat] })
export class WorkerHeartbeatModule {}
