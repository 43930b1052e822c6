import { CliError, EXIT } from './http-client.js';
import { FileError, readSubscribers, type SubscriberLine } from './subscriber-file.js';
import { type BulkResult, SubscriberImport } from './subscriber-import.js';

async function* text(s: string): AsyncGenerator<string> {
  yield s;
}

async function all<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of source) out.push(x);
  return out;
}

describe('subscriber files', () => {
  it('CSV: maps the header’s columns, data.<key> into data, and leaves empty cells out', async () => {
    const lines = await all(
      readSubscribers(text('\uFEFFid, email ,data.plan,data.__proto__\nu1,u1@x.io,pro,\nu2,,,p\nu3,a,b\n'), 'csv'),
    );
    expect(lines).toEqual([
      { line: 2, item: { id: 'u1', email: 'u1@x.io', data: { plan: 'pro' } } },
      { line: 3, item: { id: 'u2', data: { ['__proto__']: 'p' } } },
      { line: 4, error: '3 fields where the header has 4; quote a field that holds a comma' },
    ]);
    expect(Object.getPrototypeOf((lines[1] as unknown as { item: { data: object } }).item.data)).toBe(Object.prototype);
  });

  it('CSV: refuses a header with an unknown or repeated column, or no id', async () => {
    await expect(all(readSubscribers(text('id,mail\n'), 'csv'))).rejects.toThrow(
      /column 'mail' is not one notifyd knows/,
    );
    await expect(all(readSubscribers(text('id,email,email\n'), 'csv'))).rejects.toThrow(/names 'email' twice/);
    await expect(all(readSubscribers(text('email\n'), 'csv'))).rejects.toThrow(/no id column/);
    await expect(all(readSubscribers(text('id,email\n'), 'csv'))).resolves.toEqual([]);
  });

  it('NDJSON: one object per line; bad JSON and non-objects are reported by line, blank lines skipped', async () => {
    expect(
      await all(readSubscribers(text('{"id":"a","email":null}\n\n{"id":\n[1]\n  {"id":"b"}  \n'), 'ndjson')),
    ).toEqual([
      { line: 1, item: { id: 'a', email: null } },
      { line: 3, error: expect.stringMatching(/^not valid JSON/) },
      { line: 4, error: expect.stringMatching(/^must be a JSON object/) },
      { line: 5, item: { id: 'b' } },
    ]);
  });
});

describe('subscriber files read from a line on (--from-line)', () => {
  it('NDJSON: lines before it are not parsed; the others keep their numbers', async () => {
    expect(await all(readSubscribers(text('{"id":"a"}\nnot json\n\n{"id":"b"}\n[1]\n'), 'ndjson', 3))).toEqual([
      { line: 4, item: { id: 'b' } },
      { line: 5, error: expect.stringMatching(/^must be a JSON object/) },
    ]);
    expect(await all(readSubscribers(text('{"id":"a"}\n'), 'ndjson', 9))).toEqual([]);
  });

  it('CSV: the header is still read (and checked), then the records from that line on', async () => {
    expect(await all(readSubscribers(text('id,data.plan\nu1,pro\nu2,"open\nu3,free\n'), 'csv', 4))).toEqual([
      { line: 4, item: { id: 'u3', data: { plan: 'free' } } },
    ]);
    await expect(all(readSubscribers(text('id,mail\nu1,x\n'), 'csv', 2))).rejects.toThrow(/column 'mail'/);
  });
});

describe('SubscriberImport', () => {
  const entries = (n: number, bad: number[] = []): SubscriberLine[] =>
    Array.from({ length: n }, (_, i) =>
      bad.includes(i + 1) ? { line: i + 1, error: 'not valid JSON' } : { line: i + 1, item: { id: `u${i + 1}` } },
    );
  async function* from(list: SubscriberLine[], thenThrow?: Error): AsyncGenerator<SubscriberLine> {
    yield* list;
    if (thenThrow) throw thenThrow;
  }

  it('sends batches in order and maps each refused item back to its line', async () => {
    const sent: string[][] = [];
    const sink = async (items: Record<string, unknown>[]): Promise<BulkResult> => {
      sent.push(items.map((i) => String(i.id)));
      const badIndex = items.findIndex((i) => i.id === 'u5');
      return {
        created: items.length - (badIndex >= 0 ? 1 : 0),
        updated: 0,
        duplicates: 0,
        failed: badIndex >= 0 ? 1 : 0,
        errors: badIndex >= 0 ? [{ index: badIndex, id: 'u5', field: 'email', message: 'email must be…' }] : [],
      };
    };
    const summary = await new SubscriberImport(sink, 3).run(from(entries(8, [2])));
    expect(sent).toEqual([['u1', 'u3', 'u4'], ['u5', 'u6', 'u7'], ['u8']]);
    expect(summary).toMatchObject({ lines: 8, created: 6, failed: 2, stopped: null });
    expect(summary.errors).toEqual([
      { line: 2, id: null, field: null, message: 'not valid JSON' },
      { line: 5, id: 'u5', field: 'email', message: 'email must be…' },
    ]);
  });

  it('stops when notifyd refuses a whole batch, saying from which line', async () => {
    let calls = 0;
    const sink = async (items: Record<string, unknown>[]): Promise<BulkResult> => {
      if (++calls === 2) throw new CliError('Invalid API key', EXIT.noPermission, 401);
      return { created: items.length, updated: 0, duplicates: 0, failed: 0, errors: [] };
    };
    const summary = await new SubscriberImport(sink, 2).run(from(entries(7)));
    expect(calls).toBe(2);
    expect(summary).toMatchObject({
      created: 2,
      stopped: { line: 3, message: 'Invalid API key', exit_code: EXIT.noPermission },
    });
  });

  it('writes the lines before an unreadable part of the file, then stops there', async () => {
    const sent: number[] = [];
    const sink = async (items: Record<string, unknown>[]): Promise<BulkResult> => {
      sent.push(items.length);
      return { created: items.length, updated: 0, duplicates: 0, failed: 0, errors: [] };
    };
    const summary = await new SubscriberImport(sink, 10).run(
      from(entries(4), new FileError('the file is not UTF-8 text')),
    );
    expect(sent).toEqual([4]);
    expect(summary).toMatchObject({
      created: 4,
      stopped: { line: 5, message: 'the file is not UTF-8 text', exit_code: EXIT.invalid },
    });
  });
});
