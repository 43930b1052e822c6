import { Injectable, type OnModuleInit } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { Db } from '../../database/db.js';
import { ALIVE_WITHIN_SECONDS } from '../../jobs/heartbeat/worker-heartbeat.service.js';
import { DeliveryEvents, type ProviderCall } from '../../jobs/worker/delivery-events.js';
import * as sql from './sql/metrics.sql.js';

export const QUEUE_SNAPSHOT = 'queue';

export interface QueueGauges {
  depth: { pending: number; retry: number; processing: number };
  oldest: { urgent: number; normal: number; bulk: number };
  /** Absent from snapshots computed before heartbeats existed. */
  workers_alive?: number;
  lane_pauses: { lane: string; channel: string; provider: string; pauses: number }[];
  failovers?: {
    lane: string;
    channel: string;
    from: string;
    to: string;
    trips: number;
    moved: number;
    resting: boolean;
  }[];
}

type FailoverRow = NonNullable<QueueGauges['failovers']>[number];

/** One series of a gauge: its labels and its value. */
type Series = [labels: Record<string, string>, value: number];

/**
 * A cluster gauge and how the queue snapshot gives its series. Undefined leaves the gauge as
 * it was (a snapshot computed before the gauge existed); otherwise the series replace all of
 * the gauge's previous ones, so that a lane or a breaker that is gone stops being reported.
 */
interface SnapshotGauge {
  name: string;
  help: string;
  labelNames: readonly string[];
  series: (g: QueueGauges, ageSeconds: number) => Series[] | undefined;
}

const BREAKER_LABELS = ['lane', 'channel', 'from', 'to'] as const;

/** A breaker gauge's series: one per failover breaker, a lane's primary (from) and fallback (to) provider. */
function breakerSeries(value: (f: FailoverRow) => number): SnapshotGauge['series'] {
  return (g) =>
    (g.failovers ?? []).map((f) => [{ lane: f.lane, channel: f.channel, from: f.from, to: f.to }, value(f)]);
}

/** The queue, lane and failover gauges, in the order /metrics lists them. */
const SNAPSHOT_GAUGES: SnapshotGauge[] = [
  {
    name: 'notifyd_failovers_total',
    help: 'Messages sent through the fallback provider instead of the primary, per breaker, across all replicas (monotonic).',
    labelNames: BREAKER_LABELS,
    series: breakerSeries((f) => Number(f.moved)),
  },
  {
    name: 'notifyd_failover_trips_total',
    help: 'Times each failover breaker opened (primary rested), across all replicas (monotonic).',
    labelNames: BREAKER_LABELS,
    series: breakerSeries((f) => Number(f.trips)),
  },
  {
    name: 'notifyd_failover_breaker_open',
    help: '1 while the primary rests and the fallback delivers, else 0.',
    labelNames: BREAKER_LABELS,
    series: breakerSeries((f) => (f.resting ? 1 : 0)),
  },
  {
    name: 'notifyd_lane_pauses_total',
    help: 'Times each lane was paused since it was created, across all replicas (monotonic).',
    labelNames: ['lane', 'channel', 'provider'],
    series: (g) =>
      g.lane_pauses.map((l) => [{ lane: l.lane, channel: l.channel, provider: l.provider }, Number(l.pauses)]),
  },
  {
    name: 'notifyd_jobs_queue_depth',
    help: 'Live jobs by status (cluster-wide, computed every METRICS_GAUGE_INTERVAL_SECS by one replica).',
    labelNames: ['status'],
    series: (g) => (['pending', 'retry', 'processing'] as const).map((status) => [{ status }, Number(g.depth[status])]),
  },
  {
    name: 'notifyd_oldest_pending_age_seconds',
    help: 'How late the oldest waiting pending/retry job is, from the time its sender asked for (scheduled_at, not the fair-share slot), by priority band (urgent < 50, normal 50–79, bulk ≥ 80); 0 when none is late.',
    labelNames: ['band'],
    series: (g) =>
      (['urgent', 'normal', 'bulk'] as const).map((band) => [{ band }, Math.max(0, Number(g.oldest[band]))]),
  },
  {
    name: 'notifyd_workers_alive',
    help: `Worker processes (NOTIFYD_ROLE=worker or all) whose heartbeat is younger than ${ALIVE_WITHIN_SECONDS} s, cluster-wide.`,
    labelNames: [],
    series: (g) => (g.workers_alive === undefined ? undefined : [[{}, Number(g.workers_alive)]]),
  },
  {
    name: 'notifyd_queue_gauges_age_seconds',
    help: 'How old the queue gauges are: a value far above METRICS_GAUGE_INTERVAL_SECS means no replica computes them.',
    labelNames: [],
    series: (_g, ageSeconds) => [[{}, ageSeconds]],
  },
];

/** Provider call durations, 50 ms to 20 s (notifyd's buckets). */
const LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];

/**
 * notifyd's Prometheus series, in one registry per app (two apps in one process — tests,
 * embedded use — never share counters). Counters are this process's; the queue, lane and
 * failover gauges are the cluster's, computed by one replica per tick (QueueGaugesTask) and
 * read here at scrape.
 */
@Injectable()
export class MetricsService implements OnModuleInit {
  readonly registry = new Registry();

  private readonly outcomes = new Counter({
    name: 'notifyd_jobs_outcome_total',
    help: 'Jobs settled by this process, by channel, provider and outcome (sent, skipped, retry, failed, rate_limited).',
    labelNames: ['channel', 'provider', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly providerErrors = new Counter({
    name: 'notifyd_provider_errors_total',
    help: 'Provider refusals by kind (rate_limited, transient, permanent, suppressed).',
    labelNames: ['channel', 'provider', 'kind'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'notifyd_send_latency_seconds',
    help: 'Duration of one provider call (a batch counts once), without the wait for the pacing slot.',
    labelNames: ['channel', 'provider'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly gauges = SNAPSHOT_GAUGES.map(({ name, help, labelNames, series }) => ({
    gauge: new Gauge({ name, help, labelNames, registers: [this.registry] }),
    series,
  }));

  constructor(
    private readonly db: Db,
    private readonly events: DeliveryEvents,
  ) {
    collectDefaultMetrics({ register: this.registry, prefix: 'notifyd_process_' });
  }

  onModuleInit(): void {
    this.events.onProviderCall((call) => this.observe(call));
  }

  /** The Prometheus text: this process's counters and the latest cluster gauges. */
  async render(): Promise<string> {
    const row = await this.db.one<{ value: QueueGauges; age_seconds: number }>(sql.READ_SNAPSHOT, [QUEUE_SNAPSHOT]);
    if (row) this.setGauges(row.value, row.age_seconds);
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private setGauges(g: QueueGauges, ageSeconds: number): void {
    for (const { gauge, series } of this.gauges) {
      const values = series(g, ageSeconds);
      if (!values) continue;
      gauge.reset();
      for (const [labels, value] of values) gauge.set(labels, value);
    }
  }

  private observe(call: ProviderCall): void {
    const labels = { channel: call.channel, provider: call.provider };
    this.latency.observe(labels, call.durationMs / 1000);
    // Counted per call, then one inc per label set: a batch call of 100 answers is 1–3 incs,
    // not 100 (prom-client validates the labels on every inc; this runs on the send path).
    const outcomes = new Map<string, number>();
    const errors = new Map<string, number>();
    const add = (m: Map<string, number>, key: string) => m.set(key, (m.get(key) ?? 0) + 1);
    call.results.forEach((r, i) => {
      if (r.ok) {
        add(outcomes, r.skipped ? 'skipped' : 'sent');
        return;
      }
      const kind = r.error.kind;
      add(errors, kind);
      const a = call.attempts[i];
      add(
        outcomes,
        kind === 'rate_limited' || r.error.quotaExhausted
          ? 'rate_limited'
          : kind === 'transient' && a && a.attempt < a.maxAttempts
            ? 'retry'
            : 'failed',
      );
    });
    for (const [outcome, n] of outcomes) this.outcomes.inc({ ...labels, outcome }, n);
    for (const [kind, n] of errors) this.providerErrors.inc({ ...labels, kind }, n);
  }
}
