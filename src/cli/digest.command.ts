import type { DigestReport } from '../digest/digest.types.js';
import { renderMarkdown } from '../digest/render/markdown.js';
import { parseArgs } from './args.js';
import { EXIT, NotifydClient } from './http-client.js';
import { print, printJson } from './output.js';

/**
 * `notifyd digest [--window 24h] [--json]`: the ranked findings. Exit 2 when there is a
 * critical finding, so cron or CI can alert on it. `--to slack:…|discord:…|telegram:…|email:…`
 * sends it there instead (POST /v1/admin/digest/notify; `--to default` uses DIGEST_NOTIFY).
 */
export async function digest(argv: string[]): Promise<number> {
  const { flags } = parseArgs(argv, { boolean: ['json'], string: ['url', 'key', 'window', 'to'] });
  const window = typeof flags.window === 'string' ? flags.window : '24h';
  if (typeof flags.to === 'string') {
    const body = {
      ...(flags.to === 'default' ? {} : { to: flags.to }),
      ...(typeof flags.window === 'string' ? { window } : {}),
    };
    const sent = await NotifydClient.fromEnv(flags).request<{
      provider: string;
      provider_message_id: string | null;
      summary: DigestReport['summary'];
    }>('POST', '/v1/admin/digest/notify', body);
    if (flags.json) printJson(sent);
    else
      print(`Digest sent through ${sent.provider}${sent.provider_message_id ? ` (${sent.provider_message_id})` : ''}.`);
    return sent.summary?.critical > 0 ? EXIT.findings : EXIT.ok;
  }
  const report = await NotifydClient.fromEnv(flags).request<DigestReport>(
    'GET',
    `/v1/admin/digest?format=json&window=${encodeURIComponent(window)}`,
  );
  if (flags.json) printJson(report);
  else print(renderMarkdown(report));
  return report.summary.critical > 0 ? EXIT.findings : EXIT.ok;
}
