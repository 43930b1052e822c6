import { createReadStream, statSync } from 'node:fs';
import { BULK_MAX_SUBSCRIBERS } from '../subscribers/dto/bulk-subscribers.dto.js';
import { parseArgs, UsageError } from './args.js';
import { CliError, EXIT, NotifydClient } from './http-client.js';
import { print, printJson } from './output.js';
import { Progress } from './progress.js';
import { FileError, formatOfPath, type ImportFormat, readSubscribers } from './subscriber-file.js';
import { type BatchSink, type BulkResult, type ImportSummary, SubscriberImport } from './subscriber-import.js';

const USAGE = `usage: notifyd subscribers import <file> [--format ndjson|csv] [--batch 1000] [--from-line N] [--dry-run] [--json]
  NDJSON: one JSON object per line, as POST /v1/subscribers takes it (null clears a field).
  CSV: a header row naming id and any of email, phone, first_name, last_name, locale, timezone
  and data.<key>; an empty cell keeps the stored value.
  --from-line N resumes a run that stopped: give the line it named ("Stopped at line N"). The
  lines before N are not read (a CSV's header still is); line numbers stay those of the file.
  Writes into the project whose key is in NOTIFYD_PROJECT_KEY (or --key): a project key, not the admin key.`;

/** Problems printed after the summary; --json has every kept one. */
const PRINTED_ERRORS = 50;
/** A batch of 10 000 can take a while on a busy instance; the client's usual 30 s is for small calls. */
const BULK_TIMEOUT_MS = 120_000;

/** `notifyd subscribers import <file>`: an audience from NDJSON or CSV, in bulk calls, with progress. */
export async function subscribers(argv: string[]): Promise<number> {
  const { flags, positionals } = parseArgs(argv, {
    boolean: ['json', 'dry-run'],
    string: ['url', 'key', 'format', 'batch', 'from-line'],
  });
  const [action, path, extra] = positionals;
  if (action !== 'import' || !path || extra) throw new UsageError(USAGE);
  const format = importFormat(flags.format, path);
  const batchSize = batchSizeOf(flags.batch);
  const fromLine = fromLineOf(flags['from-line']);
  const dryRun = flags['dry-run'] === true;
  const size = fileSize(path);
  const sink = dryRun ? await localCheck() : bulkSink(projectClient(flags));

  const progress = new Progress(
    `${dryRun ? 'checking' : 'importing'}${fromLine > 1 ? ` from line ${fromLine}` : ''}`,
    size,
  );
  const bytes = { read: 0 };
  const started = Date.now();
  const importer = new SubscriberImport(sink, batchSize, (s) => {
    const rate = Math.round(s.lines / Math.max((Date.now() - started) / 1000, 0.001));
    progress.update(
      bytes.read,
      `${s.lines} lines, ${written(s, dryRun)} ${dryRun ? 'valid' : 'written'}, ${s.failed} refused, ${rate} lines/s`,
    );
  });
  const summary = await importer.run(readSubscribers(utf8Chunks(path, bytes), format, fromLine));
  progress.finish();

  if (flags.json) printJson({ dry_run: dryRun, from_line: fromLine, ...summary });
  else print(report(summary, dryRun, fromLine));
  if (summary.stopped) return summary.stopped.exit_code;
  return summary.failed > 0 ? EXIT.invalid : EXIT.ok;
}

function importFormat(flag: string | boolean | undefined, path: string): ImportFormat {
  if (flag === undefined) {
    const format = formatOfPath(path);
    if (!format)
      throw new UsageError(`cannot tell the format of '${path}' from its name: pass --format ndjson or --format csv`);
    return format;
  }
  if (flag !== 'ndjson' && flag !== 'csv')
    throw new UsageError(`--format must be ndjson or csv (got '${String(flag)}')`);
  return flag;
}

function batchSizeOf(flag: string | boolean | undefined): number {
  if (flag === undefined) return 1000;
  const n = Number(flag);
  if (!Number.isInteger(n) || n < 1 || n > BULK_MAX_SUBSCRIBERS)
    throw new UsageError(`--batch must be a whole number from 1 to ${BULK_MAX_SUBSCRIBERS} (got '${String(flag)}')`);
  return n;
}

/** 1-based, as the import numbers lines; a line past the end of the file reads nothing. */
function fromLineOf(flag: string | boolean | undefined): number {
  if (flag === undefined) return 1;
  const n = typeof flag === 'string' && /^\d+$/.test(flag.trim()) ? Number(flag) : NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new UsageError(
      `--from-line must be a whole number from 1, the line a stopped import named (e.g. --from-line 5001); got '${String(flag)}'`,
    );
  return n;
}

function fileSize(path: string): number {
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new UsageError(`'${path}' is not a file`);
    return stat.size;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read '${path}': ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** Project routes take the project's key: the admin key cannot write subscribers. */
function projectClient(
  flags: Record<string, string | boolean | undefined>,
  env: NodeJS.ProcessEnv = process.env,
): NotifydClient {
  const key = (flags.key as string | undefined) ?? env.NOTIFYD_PROJECT_KEY;
  if (!key)
    throw new UsageError(
      'no project key: set NOTIFYD_PROJECT_KEY (or pass --key) to the key of the project to import into (notifyd keys create prints one)',
    );
  return new NotifydClient((flags.url as string | undefined) ?? env.NOTIFYD_URL, key);
}

/**
 * Sends a batch to POST /v1/subscribers/bulk. A batch over the instance's BODY_LIMIT_BYTES
 * (413) is split in two and each half sent, down to the single subscriber that is too large.
 */
function bulkSink(client: NotifydClient): BatchSink {
  const send: BatchSink = async (items) => {
    try {
      return await client.request<BulkResult>(
        'POST',
        '/v1/subscribers/bulk',
        { subscribers: items },
        { timeoutMs: BULK_TIMEOUT_MS },
      );
    } catch (err) {
      if (!(err instanceof CliError) || err.status !== 413) throw err;
      if (items.length === 1) {
        const id = typeof items[0].id === 'string' ? items[0].id : null;
        return {
          created: 0,
          updated: 0,
          duplicates: 0,
          failed: 1,
          errors: [{ index: 0, id, field: null, message: err.message }],
        };
      }
      const half = Math.ceil(items.length / 2);
      const [first, second] = [await send(items.slice(0, half)), await send(items.slice(half))];
      return {
        created: first.created + second.created,
        updated: first.updated + second.updated,
        duplicates: first.duplicates + second.duplicates,
        failed: first.failed + second.failed,
        errors: [...first.errors, ...second.errors.map((e) => ({ ...e, index: e.index + half }))],
      };
    }
  };
  return send;
}

/** --dry-run: the server's own per-item check, run here; nothing is sent and no key is needed. */
async function localCheck(): Promise<BatchSink> {
  const { checkSubscriberItem } = await import('../subscribers/subscriber-item.js');
  return async (items) => {
    const result: BulkResult = { created: 0, updated: 0, duplicates: 0, failed: 0, errors: [] };
    for (const [index, item] of items.entries()) {
      const check = await checkSubscriberItem(item);
      if (check.ok) continue;
      result.failed++;
      const id = typeof item.id === 'string' ? item.id : null;
      result.errors.push(...check.problems.map((p) => ({ index, id, ...p })));
    }
    return result;
  };
}

/**
 * The file as UTF-8 text, counting the bytes read for the progress bar. A UTF-8 byte order
 * mark is dropped; bytes that are not UTF-8 stop the import (a Latin-1 export read as UTF-8
 * would store mangled names).
 */
async function* utf8Chunks(path: string, bytes: { read: number }): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const buffer of createReadStream(path, { highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
    bytes.read += buffer.length;
    let text: string;
    try {
      text = decoder.decode(buffer, { stream: true });
    } catch {
      throw new FileError(
        'the file is not UTF-8 text from here on; convert it first, e.g. iconv -f WINDOWS-1252 -t UTF-8 in.csv > out.csv',
      );
    }
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

function written(s: ImportSummary, dryRun: boolean): number {
  return dryRun ? s.lines - s.failed : s.created + s.updated + s.duplicates;
}

function report(s: ImportSummary, dryRun: boolean, fromLine: number): string {
  const read = `${s.lines} lines read${fromLine > 1 ? ` from line ${fromLine} on` : ''}`;
  const lines = [
    dryRun
      ? `Dry run: ${read}, ${written(s, true)} valid, ${s.failed} refused; nothing was sent.`
      : `${read}: ${s.created} created, ${s.updated} updated${s.duplicates ? `, ${s.duplicates} repeating an id of the same batch (applied in order)` : ''}, ${s.failed} refused.`,
  ];
  if (fromLine > 1 && s.lines === 0 && !s.stopped)
    lines.push(`The file has no subscriber line from line ${fromLine} on.`);
  for (const e of s.errors.slice(0, PRINTED_ERRORS))
    lines.push(`line ${e.line}${e.id ? ` (${e.id})` : ''}: ${e.message}`);
  const more = s.errors.length - Math.min(s.errors.length, PRINTED_ERRORS) + s.errors_omitted;
  if (more > 0) lines.push(`… and ${more} more problem(s)${s.errors_omitted ? '' : ' (--json lists them)'}.`);
  if (s.stopped) {
    lines.push(`Stopped at line ${s.stopped.line}: ${s.stopped.message}`);
    if (!dryRun)
      lines.push(
        s.stopped.line > 1
          ? `The lines before it were handled; fix the cause and run the import again with --from-line ${s.stopped.line} to resume there (an upsert sent twice is harmless).`
          : `Fix the cause and run the import again.`,
      );
  }
  return lines.join('\n');
}
