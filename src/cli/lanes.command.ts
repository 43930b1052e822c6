import { parseArgs, UsageError } from './args.js';
import { durationSeconds } from './durations.js';
import { EXIT, NotifydClient } from './http-client.js';
import { print, printJson, table } from './output.js';

interface Lane {
  lane: string;
  effective_rate: number;
  rate: number;
  paused: boolean;
  paused_until: string | null;
  pause_kind: string | null;
  pause_reason: string | null;
  quota: { remaining: number | null; limit: number | null };
}

const USAGE =
  'usage: notifyd lanes [--json] | notifyd lanes pause <lane> [--for 1h] [--reason TEXT] | notifyd lanes resume <lane>';

/** `notifyd lanes` lists the pacing lanes; `lanes pause|resume <lane>` steers one. */
export async function lanes(argv: string[]): Promise<number> {
  const { flags, positionals } = parseArgs(argv, { boolean: ['json'], string: ['url', 'key', 'for', 'reason'] });
  const client = NotifydClient.fromEnv(flags);
  const [action, lane, extra] = positionals;
  if (!action) {
    const result = await client.request<{ lanes: Lane[] }>('GET', '/v1/admin/lanes');
    if (flags.json) printJson(result);
    else if (!result.lanes.length) print('No lanes.');
    else print(table(['LANE', 'RATE/S', 'STATE', 'UNTIL', 'WHY', 'QUOTA'], result.lanes.map(row)));
    return EXIT.ok;
  }
  if ((action !== 'pause' && action !== 'resume') || !lane || extra) throw new UsageError(USAGE);
  const body =
    action === 'pause'
      ? {
          ...(flags.for ? { duration_secs: durationSeconds(String(flags.for), '--for') } : {}),
          ...(flags.reason ? { reason: flags.reason } : {}),
        }
      : undefined;
  const state = await client.request<Lane>('POST', `/v1/admin/lanes/${encodeURIComponent(lane)}/${action}`, body ?? {});
  if (flags.json) printJson(state);
  else print(state.paused ? `${state.lane} paused until ${state.paused_until}.` : `${state.lane} is flowing.`);
  return EXIT.ok;
}

function row(l: Lane): unknown[] {
  const rate = l.effective_rate === l.rate ? l.rate || 'unpaced' : `${l.effective_rate} (of ${l.rate})`;
  const quota = l.quota.limit ? `${l.quota.remaining}/${l.quota.limit}` : null;
  return [l.lane, rate, l.paused ? `paused (${l.pause_kind})` : 'flowing', l.paused_until, l.pause_reason, quota];
}
