import { CsvError } from './csv-reader.js';
import { CliError, EXIT } from './http-client.js';
import { FileError, type SubscriberLine } from './subscriber-file.js';

/** What POST /v1/subscribers/bulk answers (and a dry run works out locally). */
export interface BulkResult {
  created: number;
  updated: number;
  duplicates: number;
  failed: number;
  errors: { index: number; id: string | null; field: string | null; message: string }[];
}

/** Where a batch goes: notifyd, or for a dry run the same per-item check run here. */
export type BatchSink = (items: Record<string, unknown>[]) => Promise<BulkResult>;

export interface ImportError {
  line: number;
  id: string | null;
  field: string | null;
  message: string;
}

export interface ImportSummary {
  /** Subscriber lines read (blank lines and the CSV header not counted). */
  lines: number;
  created: number;
  updated: number;
  duplicates: number;
  /** Lines refused: unreadable, or refused by notifyd. */
  failed: number;
  /** The first MAX_KEPT_ERRORS problems found, by line. */
  errors: ImportError[];
  errors_omitted: number;
  /** Why the import stopped before the end of the file (lines before `line` were handled). */
  stopped: { line: number; message: string; exit_code: number } | null;
}

/** Problems kept for the report; a file of bad lines must not fill memory with them. */
export const MAX_KEPT_ERRORS = 1000;

/**
 * Reads subscriber lines, sends them in batches, and adds up what notifyd answered, mapping
 * each refused item back to its line. Batches go one at a time, in file order, so a later line
 * of an id wins as it would in one call. A failure of a whole batch (notifyd unreachable, key
 * refused) stops the import: the lines before that batch are written and running it again is
 * harmless (an upsert of the same values changes nothing).
 */
export class SubscriberImport {
  readonly summary: ImportSummary = {
    lines: 0,
    created: 0,
    updated: 0,
    duplicates: 0,
    failed: 0,
    errors: [],
    errors_omitted: 0,
    stopped: null,
  };
  private lastLine = 0;

  constructor(
    private readonly sink: BatchSink,
    private readonly batchSize: number,
    private readonly onProgress: (summary: ImportSummary) => void = () => undefined,
  ) {}

  async run(lines: AsyncIterable<SubscriberLine>): Promise<ImportSummary> {
    let batch: { line: number; item: Record<string, unknown> }[] = [];
    try {
      for await (const entry of lines) {
        this.summary.lines++;
        this.lastLine = entry.line;
        if ('error' in entry) {
          this.summary.failed++;
          this.addError({ line: entry.line, id: null, field: null, message: entry.error });
        } else if (batch.push(entry) >= this.batchSize) {
          await this.send(batch);
          batch = [];
          if (this.summary.stopped) break;
        }
        if (this.summary.lines % 200 === 0) this.onProgress(this.summary);
      }
    } catch (err) {
      if (!(err instanceof CsvError || err instanceof FileError)) throw err;
      // The lines before the unreadable one are good: write them, then stop.
      await this.send(batch);
      batch = [];
      this.summary.stopped ??= { line: err.line ?? this.lastLine + 1, message: err.reason, exit_code: EXIT.invalid };
    }
    await this.send(batch);
    this.onProgress(this.summary);
    // Unreadable lines are noted as read, refused items once their batch is answered: sort.
    this.summary.errors.sort((a, b) => a.line - b.line);
    return this.summary;
  }

  private async send(batch: { line: number; item: Record<string, unknown> }[]): Promise<void> {
    if (!batch.length || this.summary.stopped) return;
    let result: BulkResult;
    try {
      result = await this.sink(batch.map((b) => b.item));
    } catch (err) {
      this.stop(batch[0].line, err);
      return;
    }
    this.summary.created += result.created;
    this.summary.updated += result.updated;
    this.summary.duplicates += result.duplicates;
    this.summary.failed += result.failed;
    for (const e of result.errors)
      this.addError({ line: batch[e.index]?.line ?? 0, id: e.id, field: e.field, message: e.message });
    this.onProgress(this.summary);
  }

  private stop(line: number, err: unknown): void {
    if (!(err instanceof CliError)) throw err;
    this.summary.stopped = { line, message: err.message, exit_code: err.exitCode };
  }

  private addError(error: ImportError): void {
    if (this.summary.errors.length < MAX_KEPT_ERRORS) this.summary.errors.push(error);
    else this.summary.errors_omitted++;
  }
}
