/** A Twilio REST answer outside 2xx, with what classification needs: status, body and headers. */
export class TwilioHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string | string[] | undefined>,
  ) {
    const parsed = typeof body === 'string' ? safeJson(body) : body;
    const message =
      parsed && typeof parsed === 'object' && 'message' in parsed
        ? String((parsed as { message: unknown }).message)
        : `HTTP ${status}`;
    super(message);
    this.name = 'TwilioHttpError';
    this.parsed = parsed;
  }

  readonly parsed: unknown;

  /** Twilio's numeric error code (https://www.twilio.com/docs/api/errors), when the body has one. */
  get code(): number | undefined {
    const code = (this.parsed as { code?: unknown } | null)?.code;
    return typeof code === 'number' ? code : typeof code === 'string' && /^\d+$/.test(code) ? Number(code) : undefined;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
