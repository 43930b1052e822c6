import type { DigestReport } from '../digest/digest.types.js';
import { renderMarkdown } from '../digest/render/markdown.js';
import { parseArgs } from './args.js';
import { EXIT, NotifydClient } from './http-client.js';
import { print, printJson } from './output.js';

/**
 * `notifyd digest [--window 24h] [--json]`: the ranked findings. Exit 2 when there is a
 * critical finding, so cron or CI can alert on it.
 */
export async function digest(argv: string[]): Promise<number> {
  const { flags } = parseArgs(argv, { boolean: ['json'], string: ['url', 'key', 'window'] });
  const window = typeof flags.window === 'string' ? flags.window : '24h';
  const report = await NotifydClient.fromEnv(flags).request<DigestReport>('GET', `/v1/admin/digest?format=json&window=${encodeURIComponent(window)}`);
  if (flags.json) printJson(report);
  else print(renderMarkdown(report));
  return report.summary.critical > 0 ? EXIT.findings : EXIT.ok;
}
