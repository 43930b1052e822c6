import { Inject, Injectable, Optional } from '@nestjs/common';
import { VERSION } from '../common/version.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { CHANNELS } from '../domain/channels.js';
import { ALIVE_WITHIN_SECONDS } from '../jobs/heartbeat/worker-heartbeat.service.js';
import { WorkerHeartbeats } from '../jobs/heartbeat/worker-heartbeats.js';
import { LaneStateService } from '../pacing/lane-state.service.js';
import { rateText } from '../pacing/lane.presenter.js';
import { WebhookDigestSource } from '../webhooks/webhook-digest.source.js';
import { parseDigestWindow } from '../common/validation/digest-window.js';
import { DigestRepository } from './digest.repository.js';
import {
  DIGEST_WINDOWS,
  type DigestFacts,
  type DigestReport,
  type DigestWindow,
  type LaneRowView,
} from './digest.types.js';
import { FAILOVER_STATE, type FailoverStateSource } from './failover-state.js';
import { allQuiet } from './findings/all-quiet.js';
import { countBySeverity, rankFindings } from './findings/rank.js';
import { FINDING_RULES } from './findings/rules.js';
import { renderMarkdown } from './render/markdown.js';
import { DigestRollup } from './rollup/rollup.service.js';

/** notifyd's placeholder sender: EMAIL_FROM left unset. */
const PLACEHOLDER_SENDER = 'notifications@example.com';

/**
 * The operator digest: reads the instance (queue, window, lanes, webhooks, database), runs
 * every finding rule over those facts and ranks the findings. Used by the admin endpoint, the
 * scheduled digest notification, the MCP `digest` tool and the CLI.
 */
@Injectable()
export class DigestService {
  constructor(
    private readonly repository: DigestRepository,
    private readonly lanes: LaneStateService,
    private readonly webhooks: WebhookDigestSource,
    private readonly heartbeats: WorkerHeartbeats,
    private readonly rollup: DigestRollup,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(FAILOVER_STATE) private readonly failover?: FailoverStateSource,
  ) {}

  /** The report for a window (default 24h). A bad window throws a 400 ApiError naming the choices. */
  async build(options: { window?: DigestWindow | string } = {}): Promise<DigestReport> {
    const facts = await this.facts(parseDigestWindow(options.window));
    const fired = FINDING_RULES.flatMap((rule) => rule(facts));
    const findings = rankFindings(fired.length ? fired : [allQuiet(facts)]);
    return { ...facts, findings, summary: countBySeverity(findings) };
  }

  /** The report as Markdown (what format=markdown, the MCP tool and the CLI print). */
  async markdown(options: { window?: DigestWindow | string } = {}): Promise<string> {
    return renderMarkdown(await this.build(options));
  }

  private async facts(window: DigestWindow): Promise<DigestFacts> {
    const now = new Date();
    const windowSeconds = DIGEST_WINDOWS[window];
    const since = new Date(now.getTime() - windowSeconds * 1000);
    const leaseSeconds = Math.round(this.config.worker.leaseMs / 1000);
    const [{ queue, projects, database }, stats, lanes, disabled, paused, breakers, workers] = await Promise.all([
      this.repository.now(leaseSeconds, now.getTime()),
      // Jobs finished since the rollup's last tick are rolled once, here, instead of by every read.
      this.rollup.catchUp(now).then(() => this.repository.window(since)),
      this.lanes.lanes(),
      this.webhooks.disabledEndpoints(),
      this.webhooks.pausedEndpoints(),
      Promise.resolve(this.failover?.breakerStates() ?? []),
      this.heartbeats.processes(),
    ]);
    const laneViews: LaneRowView[] = lanes.map((l) => ({
      lane: l.laneKey,
      channel: l.channel,
      provider: l.provider,
      project_id: l.projectId,
      effective_rate: l.effectiveRate,
      configured_rate: l.rate,
      paced: l.rate > 0,
      rate_text: rateText(l.effectiveRate),
      paused_until: l.pausedUntil?.toISOString() ?? null,
      pause_kind: l.pauseKind,
      pause_reason: l.pauseReason,
    }));
    const { delivered, bounced, complained } = stats;
    const emailFrom = this.config.connectors.emailFrom;
    return {
      window,
      window_seconds: windowSeconds,
      since: since.toISOString(),
      generated_at: now.toISOString(),
      instance: {
        version: VERSION,
        role: this.config.server.role,
        uptime_seconds: Math.round(process.uptime()),
        public_url: this.config.server.publicUrl ?? null,
        providers: Object.fromEntries(CHANNELS.map((c) => [c, this.config.connectors.providers[c] ?? null])),
        email_from: emailFrom && emailFrom !== PLACEHOLDER_SENDER ? emailFrom : null,
        email_fallback_provider: this.failover?.fallbackProvider?.('email') ?? null,
        breakers,
        paused_lanes: laneViews.filter((l) => l.paused_until).map((l) => l.lane),
      },
      queue: {
        pending: queue.pending,
        processing: queue.processing,
        retry: queue.retry,
        stuck_processing: queue.stuckProcessing,
        due: queue.due,
        late: queue.late,
        oldest_waiting_seconds: queue.oldestWaitingSeconds,
      },
      waiting: queue.waiting,
      retrying: queue.retrying,
      workers: {
        alive: workers.alive,
        last_beat_at: workers.lastBeatAt?.toISOString() ?? null,
        alive_within_seconds: ALIVE_WITHIN_SECONDS,
        processes: workers.processes.map((w) => ({
          role: w.role,
          host: w.host,
          pid: w.pid,
          version: w.version,
          started_at: w.startedAt.toISOString(),
          last_beat_at: w.lastBeat.toISOString(),
          stopped_at: w.stoppedAt?.toISOString() ?? null,
          alive: w.alive,
        })),
      },
      outcomes: stats.outcomes,
      failures: stats.failures,
      retries_waiting: queue.retriesWaiting,
      latency: stats.latency,
      deliverability: {
        delivered,
        bounced,
        complained,
        bounce_rate_percent:
          delivered + bounced > 0 ? Math.round((bounced / (delivered + bounced)) * 10_000) / 100 : null,
        complaint_rate_percent:
          complained !== null && delivered > 0 ? Math.round((complained / delivered) * 100_000) / 1_000 : null,
      },
      projects: projects.map((p) => ({
        ...p,
        sent: stats.perProject[p.id]?.sent ?? 0,
        failed: stats.perProject[p.id]?.failed ?? 0,
      })),
      lanes: laneViews,
      webhooks_disabled: disabled.map((w) => ({
        id: w.id,
        project_id: w.projectId,
        host: w.host,
        disabled_at: w.disabledAt.toISOString(),
        reason: w.reason,
      })),
      webhooks_paused: paused.map((w) => ({
        id: w.id,
        project_id: w.projectId,
        host: w.host,
        last_failure_at: w.lastFailureAt?.toISOString() ?? null,
        paused_until: w.pausedUntil.toISOString(),
        consecutive_failures: w.consecutiveFailures,
      })),
      database,
      last_finished_at: stats.lastFinishedAt,
      lease_seconds: leaseSeconds,
    };
  }
}
