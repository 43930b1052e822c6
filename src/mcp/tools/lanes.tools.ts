import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { LaneStateService } from '../../pacing/lane-state.service.js';
import { presentLane } from '../../pacing/lane.presenter.js';
import { defineTool, IDEMPOTENT_WRITE, READ_ONLY } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';

const laneView = z.object({
  lane: z.string(),
  channel: z.string(),
  provider: z.string(),
  project_id: z.string().nullable(),
  active: z.boolean(),
  rate: z.number().describe('Configured tokens per second; 0 = unpaced (see paced)'),
  paced: z.boolean().describe('False when the lane is unpaced: no rate limit of notifyd’s own'),
  rate_text: z.string().describe('The rate in force in words: "8/s" or "unpaced"'),
  burst: z.number(),
  effective_rate: z.number(),
  tokens: z.number().nullable(),
  adaptive_rate: z.number().nullable(),
  adaptive_until: z.string().nullable(),
  paused: z.boolean(),
  paused_until: z.string().nullable(),
  pause_kind: z.string().nullable(),
  pause_reason: z.string().nullable(),
  paused_at: z.string().nullable(),
  quota: z.object({ remaining: z.number().nullable(), limit: z.number().nullable(), reset_at: z.string().nullable() }),
  totals: z.object({ calls: z.number(), tokens: z.number(), pauses: z.number(), waited_ms: z.number() }),
});

const laneArg = z
  .string()
  .regex(
    /^[a-z_]+:[A-Za-z0-9_-]+(:[a-z0-9][a-z0-9_-]{0,62})?$/,
    'must be a lane key channel:provider or channel:provider:project, e.g. email:resend (see list_lanes)',
  )
  .describe('Lane key: channel:provider, or channel:provider:project');

function describeLane(l: z.input<typeof laneView>): string {
  const pause = l.paused
    ? `paused until ${l.paused_until} (${l.pause_kind}${l.pause_reason ? `: ${l.pause_reason}` : ''})`
    : 'flowing';
  return `${l.lane}: ${pause}, ${l.rate_text}${l.adaptive_rate !== null ? ' (slowed by quota headers)' : ''}`;
}

/** Pacing lanes (one per channel × provider): list_lanes, pause_lane, resume_lane. */
@Injectable()
export class LanesTools implements McpToolProvider {
  constructor(private readonly lanes: LaneStateService) {}

  tools() {
    return [
      defineTool({
        name: 'list_lanes',
        title: 'List pacing lanes',
        description:
          'Every pacing lane (channel × provider): configured and effective rate, tokens, pauses (after a 429, a quota, or by an operator) with reason and end, quota headers, totals. Start here when jobs wait.',
        annotations: READ_ONLY,
        audience: 'operator',
        input: z.strictObject({}),
        output: z.object({ lanes: z.array(laneView) }),
        run: async () => {
          const lanes = (await this.lanes.lanes()).map(presentLane);
          if (!lanes.length) return { structured: { lanes }, text: 'No lanes yet: none is configured or used.' };
          const paused = lanes.filter((l) => l.paused);
          return {
            structured: { lanes },
            text: `${lanes.length} lane(s), ${paused.length ? `paused: ${paused.map((l) => l.lane).join(', ')}` : 'none paused'}.`,
            table: {
              rows: lanes,
              columns: ['lane', 'active', 'rate_text', 'paused_until', 'pause_kind', 'pause_reason', 'tokens'],
            },
          };
        },
      }),
      defineTool({
        name: 'pause_lane',
        title: 'Pause a lane',
        description:
          'Stop sending on one lane on every replica (e.g. during a provider incident): its jobs wait without using attempts. Default 1 hour; a longer pause already in force is kept. Undo with resume_lane.',
        annotations: IDEMPOTENT_WRITE,
        audience: 'operator',
        input: z.strictObject({
          lane: laneArg,
          duration_secs: z
            .number()
            .int()
            .min(1)
            .max(30 * 86_400)
            .optional()
            .describe('How long; default 3600'),
          reason: z.string().min(1).max(300).optional().describe('Shown in list_lanes and the digest'),
        }),
        output: laneView,
        run: async ({ lane, duration_secs: seconds, reason }, context) => {
          const state = presentLane(await this.lanes.pause(lane, seconds, reason, context.actor));
          return { structured: state, text: describeLane(state) };
        },
      }),
      defineTool({
        name: 'resume_lane',
        title: 'Resume a lane',
        description:
          'Lift a lane’s pause now, whatever set it (a 429, a quota, an operator); waiting jobs flow again, most urgent first.',
        annotations: IDEMPOTENT_WRITE,
        audience: 'operator',
        input: z.strictObject({ lane: laneArg }),
        output: laneView,
        run: async ({ lane }, context) => {
          const state = presentLane(await this.lanes.resume(lane, context.actor));
          return { structured: state, text: describeLane(state) };
        },
      }),
    ];
  }
}
