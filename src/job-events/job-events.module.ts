import { Module } from '@nestjs/common';
import { EnqueueEvents } from './enqueue-events.js';
import { EvidenceEvents } from './evidence-events.js';

/**
 * The events the low layers publish and the features above them subscribe to: jobs queued
 * (enqueue) and evidence about jobs and subscribers (governance). One instance of each for the
 * whole app: every module that publishes or subscribes imports this one.
 */
@Module({
  providers: [EnqueueEvents, EvidenceEvents],
  exports: [EnqueueEvents, EvidenceEvents],
})
export class JobEventsModule {}
