import { VERSION } from '../common/version.js';

/** Exit codes of the client commands (documented in README and `notifyd help`). */
export const EXIT = {
  ok: 0,
  /** The request failed for another reason (server error, unexpected answer). */
  error: 1,
  /** The digest has critical findings (`notifyd digest` only): alert on it in cron or CI. */
  findings: 2,
  /** Bad command line or missing key. */
  usage: 64,
  /** notifyd is unreachable or not answering. */
  unavailable: 69,
  /** The key was refused (401/403). */
  noPermission: 77,
  /** The object does not exist (404). */
  notFound: 3,
  /** The action does not apply to the object's state (409), e.g. cancelling a sent job. */
  conflict: 4,
  /** notifyd refused the input (400/422). */
  invalid: 65,
} as const;

/** A failed client command with the exit code that says why. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    /** The HTTP status notifyd answered, when it answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export function mcpEndpoint(base: string): URL {
  return new URL(`${base.replace(/\/+$/, '')}/mcp`);
}

const DEFAULT_URL = 'http://localhost:3400';

/** Talks to a running notifyd's admin API with NOTIFYD_URL and NOTIFYD_ADMIN_API_KEY. */
export class NotifydClient {
  readonly baseUrl: string;

  constructor(
    url: string | undefined,
    private readonly key: string | undefined,
  ) {
    this.baseUrl = (url || DEFAULT_URL).replace(/\/+$/, '');
    try {
      new URL(this.baseUrl);
    } catch {
      throw new CliError(`NOTIFYD_URL '${this.baseUrl}' is not a URL; use e.g. http://localhost:3400.`, EXIT.usage);
    }
  }

  static fromEnv(
    flags: Record<string, string | boolean | undefined>,
    env: NodeJS.ProcessEnv = process.env,
  ): NotifydClient {
    const key = (flags.key as string | undefined) ?? env.NOTIFYD_ADMIN_API_KEY ?? env.ADMIN_API_KEY;
    return new NotifydClient((flags.url as string | undefined) ?? env.NOTIFYD_URL, key);
  }

  async request<T>(method: string, path: string, body?: unknown, options: { timeoutMs?: number } = {}): Promise<T> {
    if (!this.key)
      throw new CliError(
        'No key: set NOTIFYD_ADMIN_API_KEY (or pass --key) to the admin key, or the read-only key for reads.',
        EXIT.usage,
      );
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.key}`,
          'user-agent': `notifyd-cli/${VERSION}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      throw new CliError(
        `Cannot reach notifyd at ${this.baseUrl} (${cause}): is it running? Set NOTIFYD_URL to its address.`,
        EXIT.unavailable,
      );
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (response.ok) return parsed as T;
    const message =
      (parsed as { message?: string } | undefined)?.message ?? `${response.status} ${response.statusText}`;
    throw new CliError(`${message}`, exitCodeFor(response.status), response.status);
  }
}

function exitCodeFor(status: number): number {
  if (status === 401 || status === 403) return EXIT.noPermission;
  if (status === 404) return EXIT.notFound;
  if (status === 409) return EXIT.conflict;
  if (status === 400 || status === 422) return EXIT.invalid;
  if (status === 502 || status === 503 || status === 504) return EXIT.unavailable;
  return EXIT.error;
}
