import { CsvError, type CsvRecord, MAX_RECORD_CHARS, readCsv } from './csv-reader.js';
import { MAX_LINE_CHARS, readLines, type TextLine } from './line-reader.js';

async function* chunksOf(text: string, size = text.length || 1): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function all<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of source) out.push(x);
  return out;
}

/** Parses whole, then in chunks of 1, 2 and 3 characters: a record must not depend on where chunks split. */
async function csv(text: string): Promise<CsvRecord[]> {
  const whole = await all(readCsv(chunksOf(text)));
  for (const size of [1, 2, 3]) expect(await all(readCsv(chunksOf(text, size)))).toEqual(whole);
  return whole;
}

describe('readCsv (RFC 4180)', () => {
  it('reads records split by LF, CRLF or a lone CR, with or without a final line break, skipping empty lines', async () => {
    expect(await csv('id,email\r\na,a@x.io\n\nb,\rc,c@x.io')).toEqual([
      { line: 1, fields: ['id', 'email'] },
      { line: 2, fields: ['a', 'a@x.io'] },
      { line: 4, fields: ['b', ''] },
      { line: 5, fields: ['c', 'c@x.io'] },
    ]);
    expect(await csv('a,,\n,\n')).toEqual([
      { line: 1, fields: ['a', '', ''] },
      { line: 2, fields: ['', ''] },
    ]);
  });

  it('reads quoted fields holding commas, doubled quotes and line breaks, and numbers the records after them right', async () => {
    expect(await csv('id,note\n"a,1","say ""hi""\nthen\r\nbye"\nb,""\n')).toEqual([
      { line: 1, fields: ['id', 'note'] },
      { line: 2, fields: ['a,1', 'say "hi"\nthen\r\nbye'] },
      { line: 5, fields: ['b', ''] },
    ]);
  });

  it('reports a misplaced quote by the line its record starts on, and reads on from the next record', async () => {
    const records = await csv('a,b"c\n"d"e,f\nok,1\n');
    expect(records[0]).toEqual({ line: 1, error: expect.stringMatching(/double quote inside an unquoted field/) });
    expect(records[1]).toEqual({ line: 2, error: expect.stringMatching(/text after a closing double quote/) });
    expect(records[2]).toEqual({ line: 3, fields: ['ok', '1'] });
  });

  it('stops at a quote never closed, naming the line it opened on', async () => {
    const reading = all(readCsv(chunksOf('id\n"a\nb\nc\n', 2)));
    await expect(reading).rejects.toThrow(CsvError);
    await expect(all(readCsv(chunksOf('id\n"a\nb\nc\n')))).rejects.toThrow(
      /^line 2: a double quote opened here is never closed/,
    );
  });

  it('resumeAt: reads the header, passes over the text up to that line unparsed, and numbers on as in the whole file', async () => {
    // Line 3 opens a quote it never closes: read from line 4, it is passed over, not parsed.
    const text = 'id,note\r\na,1\r\nb,"open\rc,"two\nlines"\n\nd,4\n';
    for (const size of [text.length, 1, 2, 3])
      expect(await all(readCsv(chunksOf(text, size), { resumeAt: 4 }))).toEqual([
        { line: 1, fields: ['id', 'note'] },
        { line: 4, fields: ['c', 'two\nlines'] },
        { line: 7, fields: ['d', '4'] },
      ]);
    expect(await all(readCsv(chunksOf(text), { resumeAt: 7 }))).toEqual([
      { line: 1, fields: ['id', 'note'] },
      { line: 7, fields: ['d', '4'] },
    ]);
    expect(await all(readCsv(chunksOf(text), { resumeAt: 99 }))).toEqual([{ line: 1, fields: ['id', 'note'] }]);
    // At or before the first record after the header, nothing is passed over.
    expect(await all(readCsv(chunksOf('\nid\na\n'), { resumeAt: 3 }))).toEqual([
      { line: 2, fields: ['id'] },
      { line: 3, fields: ['a'] },
    ]);
  });

  it('stops at a record longer than MAX_RECORD_CHARS instead of holding the rest of the file', async () => {
    const text = `id\n"${'x'.repeat(MAX_RECORD_CHARS + 10)}\nmore\n`;
    await expect(all(readCsv(chunksOf(text, 64 * 1024)))).rejects.toThrow(/^line 2: a record longer than/);
  });
});

describe('readLines', () => {
  async function lines(text: string): Promise<TextLine[]> {
    const whole = await all(readLines(chunksOf(text)));
    for (const size of [1, 2, 5]) expect(await all(readLines(chunksOf(text, size)))).toEqual(whole);
    return whole;
  }

  it('numbers lines, drops the CR of CRLF, and keeps a last line without a line break', async () => {
    expect(await lines('a\r\n\nb\nc')).toEqual([
      { line: 1, text: 'a' },
      { line: 2, text: '' },
      { line: 3, text: 'b' },
      { line: 4, text: 'c' },
    ]);
  });

  it('reports a line longer than MAX_LINE_CHARS and reads on from the next one', async () => {
    const result = await all(readLines(chunksOf(`{"id":"a"}\n${'x'.repeat(MAX_LINE_CHARS + 1)}\n{"id":"b"}\n`, 4096)));
    expect(result).toEqual([
      { line: 1, text: '{"id":"a"}' },
      { line: 2, error: expect.stringMatching(/^longer than/) },
      { line: 3, text: '{"id":"b"}' },
    ]);
  });
});
