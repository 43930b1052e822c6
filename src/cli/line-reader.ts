/** Longest line kept; a longer one is reported and skipped, so one bad line cannot fill memory. */
export const MAX_LINE_CHARS = 1024 * 1024;

export type TextLine = { line: number; text: string } | { line: number; error: string };

/**
 * Lines of a text stream (LF or CRLF) with their numbers, from chunks of any size. Memory is
 * bounded by MAX_LINE_CHARS: the rest of a longer line is dropped and the line reported.
 */
export async function* readLines(chunks: AsyncIterable<string>): AsyncGenerator<TextLine> {
  let pending = '';
  let line = 1;
  let tooLong = false;
  const done = (text: string): TextLine => {
    const result: TextLine = tooLong
      ? { line, error: `longer than ${MAX_LINE_CHARS} characters` }
      : { line, text: text.endsWith('\r') ? text.slice(0, -1) : text };
    line++;
    tooLong = false;
    return result;
  };
  for await (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
      const text = tooLong ? '' : pending + chunk.slice(start, end);
      pending = '';
      if (text.length > MAX_LINE_CHARS) tooLong = true;
      yield done(text);
      start = end + 1;
    }
    if (!tooLong) pending += chunk.slice(start);
    if (pending.length > MAX_LINE_CHARS) {
      tooLong = true;
      pending = '';
    }
  }
  if (pending || tooLong) yield done(pending);
}
