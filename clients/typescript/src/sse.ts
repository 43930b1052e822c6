/** One Server-Sent Event as the stream carried it. */
export interface SseEvent {
  /** The `event:` field, `message` when absent. */
  event: string;
  data: string;
  /** The `id:` field, or null when the event carried none. */
  id: string | null;
}

/**
 * Parses a text/event-stream body (WHATWG HTML, "event stream interpretation"): fields per line,
 * an empty line dispatches, `:` lines are comments (heartbeats), `retry:` goes to `onRetry`. Works on fetch's body in Node
 * and browsers, where EventSource cannot send an Authorization header.
 */
export async function* readSse(body: ReadableStream<Uint8Array>, onRetry: (ms: number) => void = () => {}): AsyncGenerator<SseEvent> {
  // Decoded by hand (not TextDecoderStream): one path for every runtime, and no DOM/Node typing clash.
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | null = null;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n'), id };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const raw = colon < 0 ? '' : line.slice(colon + 1);
        const text = raw.startsWith(' ') ? raw.slice(1) : raw;
        if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
        else if (field === 'id' && !text.includes('\0')) id = text;
        // The reconnection time applies at once, also from a block without data (notifyd opens with one).
        else if (field === 'retry' && /^\d+$/.test(text)) onRetry(Number(text));
      }
    }
  } finally {
    reader.releaseLock();
  }
}
