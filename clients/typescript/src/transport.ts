import { NotifydError } from './errors.js';

export interface TransportOptions {
  /** notifyd's base URL, e.g. `https://notify.example.com`. */
  baseUrl: string;
  /** A project key (`sk_…`), the admin key, or a subscriber token (browser inbox). */
  apiKey: string;
  /** Retries after the first attempt (default 3); 0 turns retries off. */
  maxRetries?: number;
  /** First backoff step in ms (default 250), doubled per retry, with jitter. */
  retryBaseMs?: number;
  /** The longest wait between attempts, Retry-After included (default 30 000 ms). */
  maxRetryDelayMs?: number;
  /** Per attempt (default 60 000 ms; calls with `wait` add their wait). */
  timeoutMs?: number;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /**
   * Safe to send twice: GET, PUT, DELETE, and POSTs that carry an idempotency key. Those are
   * retried after a network error or a 502/503/504; every call is retried after a 429 (notifyd
   * refused it before doing anything).
   */
  idempotent?: boolean;
  /** Extra time the server may hold the answer (the call's `wait`). */
  extraTimeoutMs?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

const RETRYABLE_STATUS = new Set([502, 503, 504]);

/** Retry-After in ms: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Math.round(Number(header) * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/** JSON over HTTP to notifyd: authentication, typed errors, retries with backoff. */
export class Transport {
  private readonly base: string;
  private readonly fetchImpl: typeof fetch;
  readonly maxRetries: number;

  constructor(private readonly options: TransportOptions) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required, e.g. https://notify.example.com');
    if (!options.apiKey) throw new TypeError('apiKey is required: a project key (sk_…), or a subscriber token for the inbox');
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.maxRetries = options.maxRetries ?? 3;
  }

  url(path: string, query?: RequestOptions['query']): string {
    const url = new URL(this.base + path);
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    return url.toString();
  }

  get authorization(): string {
    return `Bearer ${this.options.apiKey}`;
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const idempotent = options.idempotent ?? method !== 'POST';
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetchImpl(this.url(path, options.query), {
          method,
          headers: {
            authorization: this.authorization,
            accept: 'application/json',
            ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...options.headers,
          },
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
          signal: this.attemptSignal(options),
        });
      } catch (err) {
        if (options.signal?.aborted) throw err;
        const timeout = (err as Error)?.name === 'TimeoutError';
        const error = new NotifydError(0, timeout ? 'timeout' : 'network_error', `${method} ${path}: ${timeout ? 'no answer in time' : (err as Error)?.message ?? String(err)}`, null, {}, { cause: err });
        if (!idempotent || attempt >= this.maxRetries) throw error;
        await sleep(this.backoff(attempt), options.signal);
        continue;
      }
      if (response.ok) return (await readJson(response)) as T;
      const error = await toError(response);
      const retryable = response.status === 429 || (idempotent && RETRYABLE_STATUS.has(response.status));
      if (!retryable || attempt >= this.maxRetries) throw error;
      const wait = retryAfterMs(response.headers.get('retry-after'));
      const delay = wait ?? this.backoff(attempt);
      // A wait longer than the client allows: give the caller the error (with retry_after) instead of hanging.
      if (delay > (this.options.maxRetryDelayMs ?? 30_000)) throw error;
      await sleep(delay, options.signal);
    }
  }

  /** Exponential backoff with full jitter: a crowd of clients does not retry in step. */
  private backoff(attempt: number): number {
    const ceiling = Math.min((this.options.retryBaseMs ?? 250) * 2 ** attempt, this.options.maxRetryDelayMs ?? 30_000);
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }

  private attemptSignal(options: RequestOptions): AbortSignal {
    const timeout = AbortSignal.timeout((this.options.timeoutMs ?? 60_000) + (options.extraTimeoutMs ?? 0));
    return options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

/** notifyd answers errors as `{error, message, …}`; anything else (a proxy's page) still becomes a NotifydError. */
export async function toError(response: Response): Promise<NotifydError> {
  const requestId = response.headers.get('x-request-id');
  const text = await response.text().catch(() => '');
  let body: Record<string, unknown> | undefined;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = undefined;
  }
  if (body && typeof body.error === 'string' && typeof body.message === 'string') {
    const { error, message, ...details } = body;
    return new NotifydError(response.status, error, message, requestId, details);
  }
  return new NotifydError(response.status, `http_${response.status}`, `HTTP ${response.status}: ${text.slice(0, 200) || response.statusText}`, requestId);
}

/** Seconds for notifyd's `wait` parameter from ms (at most 30 s, which notifyd allows). */
export function waitParam(ms: number): string {
  return `${Math.max(1, Math.min(30, Math.ceil(ms / 1000)))}s`;
}

export const enc = encodeURIComponent;
