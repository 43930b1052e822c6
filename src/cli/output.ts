/** How client commands print: aligned tables for people, JSON for scripts. */

const MAX_CELL = 60;

function cell(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  const text = (typeof value === 'object' ? JSON.stringify(value) : String(value)).replace(/\s+/g, ' ');
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}

/** A table with a header row; columns padded to their widest cell. */
export function table(columns: string[], rows: unknown[][]): string {
  const cells = [columns, ...rows.map((row) => row.map(cell))];
  const widths = columns.map((_, i) => Math.max(...cells.map((row) => row[i]?.length ?? 0)));
  return `${cells.map((row) => row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n')}\n`;
}

/** One object as `key  value` lines (nested objects as JSON). */
export function record(object: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(object).map((k) => k.length));
  return `${Object.entries(object)
    .map(
      ([key, value]) =>
        `${key.padEnd(width)}  ${value === null || value === undefined ? '-' : typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
    )
    .join('\n')}\n`;
}

/** Writes JSON (the CLI exits only once stdout has taken all of it: see flushStdio). */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Resolves when everything written to stdout and stderr so far has left the process. On a pipe
 * (`notifyd jobs --json | jq`) writes are asynchronous: process.exit() right after a write
 * dropped what the reader had not yet taken, cutting the JSON at the pipe's 65 536 bytes. An
 * empty write's callback runs after every earlier chunk is flushed, in order.
 */
export function flushStdio(): Promise<void> {
  const flushed = (stream: NodeJS.WriteStream) =>
    new Promise<void>((resolve) => {
      if (stream.destroyed || stream.writableEnded) return resolve();
      stream.write('', () => resolve());
    });
  return Promise.all([flushed(process.stdout), flushed(process.stderr)]).then(() => undefined);
}

export function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}
