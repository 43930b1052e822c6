import { parseArgs, UsageError } from './args.js';
import { sinceToTime } from './durations.js';
import { CliError, EXIT, NotifydClient } from './http-client.js';
import { print, printJson, record, table } from './output.js';
import { Progress } from './progress.js';

interface JobSummary {
  id: string;
  project_id: string;
  channel: string;
  status: string;
  recipient: string;
  attempts: number;
  max_attempts: number;
  provider: string | null;
  created_at: string;
  error: string | null;
}

const CONNECTION = ['url', 'key'];

/** Rows per request: the API's largest page. */
const PAGE_MAX = 500;
/** Rows `notifyd jobs` lists without --limit or --all (the API's default page). */
const DEFAULT_ROWS = 50;

function jobQuery(
  flags: Record<string, string | boolean | undefined>,
  status?: string,
  page?: { limit: number; cursor?: string },
): string {
  const params = new URLSearchParams();
  const set = (name: string, value: unknown) => value !== undefined && params.set(name, String(value));
  set('project_id', flags.project);
  set('status', status ?? flags.status);
  set('channel', flags.channel);
  set('topic', flags.topic);
  set('recipient', flags.recipient);
  if (typeof flags.since === 'string') params.set('since', sinceToTime(flags.since));
  set('limit', page ? page.limit : flags.limit);
  set('cursor', page?.cursor);
  return params.size ? `?${params}` : '';
}

/** How many rows the caller wants: --all (every match), --limit N (any N), else the default. */
function wantedRows(flags: Record<string, string | boolean | undefined>): number {
  if (flags.all && flags.limit !== undefined) throw new UsageError('give --all or --limit, not both');
  if (flags.all) return Infinity;
  if (flags.limit === undefined) return DEFAULT_ROWS;
  const n = Number(flags.limit);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new UsageError('--limit must be a whole number of 1 or more (or use --all)');
  return n;
}

/**
 * Every matching job up to `wanted`, newest first, read in pages of at most 500 by following
 * next_cursor: a listing is no longer cut at the API's page size.
 */
async function searchAll(
  client: NotifydClient,
  flags: Record<string, string | boolean | undefined>,
  wanted: number,
  status?: string,
): Promise<JobSummary[]> {
  const rows: JobSummary[] = [];
  let cursor: string | undefined;
  do {
    const limit = Math.min(PAGE_MAX, wanted - rows.length);
    const page = await client.request<{ jobs: JobSummary[]; next_cursor?: string | null }>(
      'GET',
      `/v1/admin/jobs${jobQuery(flags, status, { limit, cursor })}`,
    );
    rows.push(...page.jobs);
    cursor = page.next_cursor ?? undefined;
  } while (cursor && rows.length < wanted);
  return rows;
}

/** `notifyd jobs [--status --project --channel --topic --recipient --since 24h] [--limit N | --all] [--json]` */
export async function jobs(argv: string[]): Promise<number> {
  const { flags } = parseArgs(argv, {
    boolean: ['json', 'all'],
    string: [...CONNECTION, 'status', 'project', 'channel', 'topic', 'recipient', 'since', 'limit'],
  });
  const found = await searchAll(NotifydClient.fromEnv(flags), flags, wantedRows(flags));
  if (flags.json) {
    printJson({ jobs: found, count: found.length });
    return EXIT.ok;
  }
  if (!found.length) {
    print('No job matches.');
    return EXIT.ok;
  }
  print(
    table(
      ['ID', 'PROJECT', 'CHANNEL', 'STATUS', 'TRIES', 'RECIPIENT', 'PROVIDER', 'CREATED', 'ERROR'],
      found.map((j) => [
        j.id,
        j.project_id,
        j.channel,
        j.status,
        `${j.attempts}/${j.max_attempts}`,
        j.recipient,
        j.provider,
        j.created_at,
        j.error,
      ]),
    ),
  );
  return EXIT.ok;
}

function oneId(positionals: string[], command: string): string {
  if (positionals.length !== 1) throw new UsageError(`usage: notifyd ${command} <job id>`);
  return positionals[0];
}

/** `notifyd job <id> [--json]` */
export async function job(argv: string[]): Promise<number> {
  const { flags, positionals } = parseArgs(argv, { boolean: ['json'], string: CONNECTION });
  const result = await NotifydClient.fromEnv(flags).request<Record<string, unknown>>(
    'GET',
    `/v1/admin/jobs/${encodeURIComponent(oneId(positionals, 'job'))}`,
  );
  if (flags.json) printJson(result);
  else print(record(result));
  return EXIT.ok;
}

/**
 * `notifyd retry <id>…` re-queues failed or cancelled jobs; `notifyd retry --failed [--project
 * --channel --since --limit]` re-queues every failed job that matches, with a progress bar.
 */
export async function retry(argv: string[]): Promise<number> {
  const { flags, positionals } = parseArgs(argv, {
    boolean: ['json', 'failed', 'all'],
    string: [...CONNECTION, 'project', 'channel', 'topic', 'since', 'limit'],
  });
  const client = NotifydClient.fromEnv(flags);
  let ids = positionals;
  if (flags.failed) {
    if (ids.length) throw new UsageError('give job ids or --failed with filters, not both');
    ids = (await searchAll(client, flags, wantedRows(flags), 'failed')).map((j) => j.id);
  } else if (!ids.length) {
    throw new UsageError(
      'usage: notifyd retry <job id>… | notifyd retry --failed [--project P --channel C --since 24h --limit 500]',
    );
  }
  return each(client, ids, 'retry', flags.json === true);
}

/** `notifyd cancel <id>…` cancels pending or retry jobs. */
export async function cancel(argv: string[]): Promise<number> {
  const { flags, positionals } = parseArgs(argv, { boolean: ['json'], string: CONNECTION });
  if (!positionals.length) throw new UsageError('usage: notifyd cancel <job id>…');
  return each(NotifydClient.fromEnv(flags), positionals, 'cancel', flags.json === true);
}

/** Runs the action on each job; one line per job, exit 0 only if all succeeded. */
async function each(client: NotifydClient, ids: string[], action: 'retry' | 'cancel', json: boolean): Promise<number> {
  const progress = new Progress(action === 'retry' ? 'retrying' : 'cancelling', ids.length);
  const results: { id: string; ok: boolean; message: string; exit: number }[] = [];
  for (const id of ids) {
    try {
      await client.request('POST', `/v1/admin/jobs/${encodeURIComponent(id)}/${action}`);
      results.push({ id, ok: true, message: action === 'retry' ? 'queued again' : 'cancelled', exit: EXIT.ok });
    } catch (err) {
      if (
        !(err instanceof CliError) ||
        err.exitCode === EXIT.unavailable ||
        err.exitCode === EXIT.noPermission ||
        err.exitCode === EXIT.usage
      )
        throw err;
      results.push({ id, ok: false, message: err.message, exit: err.exitCode });
    }
    progress.tick();
  }
  progress.finish();
  if (json) printJson({ results: results.map(({ id, ok, message }) => ({ id, ok, message })) });
  else if (!results.length) print('No job matches.');
  else print(results.map((r) => `${r.id}  ${r.ok ? 'ok' : 'refused'}: ${r.message}`).join('\n'));
  const failed = results.filter((r) => !r.ok);
  // One job: its own exit code (not found, conflict…). Several: 1 if any was refused.
  if (!failed.length) return EXIT.ok;
  return results.length === 1 ? failed[0].exit : EXIT.error;
}

/** `notifyd send-test --project P --channel C --to X [--subject S] [--body B]` */
export async function sendTest(argv: string[]): Promise<number> {
  const { flags } = parseArgs(argv, {
    boolean: ['json'],
    string: [...CONNECTION, 'project', 'channel', 'to', 'subject', 'body'],
  });
  for (const name of ['project', 'channel', 'to']) {
    if (typeof flags[name] !== 'string')
      throw new UsageError(
        `--${name} is required: notifyd send-test --project P --channel C --to X [--subject S] [--body B]`,
      );
  }
  const body = {
    project_id: flags.project,
    channel: flags.channel,
    to: flags.to,
    ...(flags.subject ? { subject: flags.subject } : {}),
    ...(flags.body ? { body: flags.body } : {}),
  };
  const result = await NotifydClient.fromEnv(flags).request<{ id: string; status: string }>(
    'POST',
    '/v1/admin/send-test',
    body,
  );
  if (flags.json) printJson(result);
  else print(`Test job ${result.id} is ${result.status}; follow it with: notifyd job ${result.id}`);
  return EXIT.ok;
}
