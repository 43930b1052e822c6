import { NotifydError } from './errors.js';
import { readSse } from './sse.js';
import { enc, toError, Transport, type TransportOptions } from './transport.js';
import type { QueryOf, RequestOf, ResponseOf } from './types.js';

export interface InboxOptions extends Omit<TransportOptions, 'apiKey'> {
  subscriberId: string;
  /** A subscriber token from POST /v1/auth/subscriber-token (your backend mints it; never a project key in a browser). */
  token: string;
}

/** An event of the inbox stream, its JSON data parsed. */
export interface InboxEvent {
  /** `message.created`, `message.updated`, `messages.read`, `messages.seen`, `messages.archived`, `counts` or `resync`. */
  type: string;
  id: string | null;
  data: any;
}

export interface InboxSubscription {
  /** The id of the last event received: where a reconnect resumes. */
  readonly lastEventId: string | null;
  /** Stops the stream; it does not reconnect afterwards. */
  close(): void;
  /** Settles when the subscription ends (after close(), or with the error that ended it). */
  readonly done: Promise<void>;
}

/**
 * A subscriber's channels × topics (GET/PUT /v1/inbox/{subscriber_id}/preferences). Written by
 * hand until the generated schema has these operations (getInboxPreferences, putInboxPreferences).
 */
export interface SubscriberPreferences {
  subscriber_id: string;
  channels: string[];
  topics: { id: string; label: string | null; transactional: boolean }[];
  /** One cell per topic × channel; `switchable` is false for a transactional topic. */
  preferences: { channel: string; topic: string; enabled: boolean; switchable: boolean }[];
  /** A fresh signed link to the hosted preference page (absolute under PUBLIC_URL, else a path on the API). */
  page_url: string;
}

/** Cells to switch; a transactional topic, or a channel or topic the subscriber does not have, is a 422 naming the field. */
export interface PreferenceChoices {
  preferences: { channel: string; topic: string; enabled: boolean }[];
}

/** Stream errors after which reconnecting cannot help (the token is bad, the subscriber gone). */
const FATAL = new Set([400, 401, 403, 404]);

/**
 * A subscriber's in-app inbox, for the browser (or any runtime with fetch): list, counts, mark
 * read/seen/archived, and a live stream that reconnects by itself and resumes with Last-Event-ID
 * from the last event it received, so nothing is missed across a drop.
 */
export class NotifydInbox {
  readonly http: Transport;
  private readonly base: string;

  constructor(private readonly options: InboxOptions) {
    if (!options.subscriberId) throw new TypeError('subscriberId is required');
    this.http = new Transport({ ...options, apiKey: options.token });
    this.base = `/v1/inbox/${enc(options.subscriberId)}`;
  }

  list(query: QueryOf<'listInbox'> = {}): Promise<ResponseOf<'listInbox'>> {
    return this.http.request('GET', this.base, { query });
  }
  counts(): Promise<ResponseOf<'getInboxCounts'>> {
    return this.http.request('GET', `${this.base}/unread-count`);
  }
  /** PATCH one message: `{ read: true }`, `{ seen: true }`, `{ archived: true }`… */
  update(messageId: string, change: RequestOf<'updateInboxMessage'>): Promise<ResponseOf<'updateInboxMessage'>> {
    return this.http.request('PATCH', `${this.base}/${enc(messageId)}`, { body: change, idempotent: true });
  }
  markAllRead(request: RequestOf<'markInboxRead'> = {}): Promise<ResponseOf<'markInboxRead'>> {
    return this.http.request('POST', `${this.base}/read-all`, { body: request, idempotent: true });
  }
  markAllSeen(request: RequestOf<'markInboxSeen'> = {}): Promise<ResponseOf<'markInboxSeen'>> {
    return this.http.request('POST', `${this.base}/seen-all`, { body: request, idempotent: true });
  }
  archiveAll(request: RequestOf<'archiveInbox'> = {}): Promise<ResponseOf<'archiveInbox'>> {
    return this.http.request('POST', `${this.base}/archive-all`, { body: request, idempotent: true });
  }
  /** The subscriber's preferences, as the hosted page shows them, and a link to that page. */
  preferences(): Promise<SubscriberPreferences> {
    return this.http.request('GET', `${this.base}/preferences`);
  }
  /** Switches cells on or off (those already so are left as they are); answers the new preferences. */
  setPreferences(choices: PreferenceChoices): Promise<SubscriberPreferences> {
    return this.http.request('PUT', `${this.base}/preferences`, { body: choices, idempotent: true });
  }

  /**
   * Opens the live stream and calls `onEvent` for each event. After a drop it reconnects (the
   * server's `retry:` delay, else a growing backoff up to 30 s) with Last-Event-ID set to the
   * last id received: the server replays what was missed, or sends `resync` when it is too old.
   * Ends on close(), or on an error reconnecting cannot fix (bad token: 401/403, 404).
   */
  subscribe(onEvent: (event: InboxEvent) => void, options: {
      /** Resume after this event id (e.g. one kept from an earlier page view). */
      lastEventId?: string;
      /** Each time the stream is open (first connection and every reconnection). */
      onOpen?: () => void;
      /** Errors the subscription recovers from by reconnecting. */
      onError?: (error: unknown) => void;
    } = {},): InboxSubscription {
    const controller = new AbortController();
    let lastEventId = options.lastEventId ?? null;
    const fetchImpl = this.options.fetch ?? globalThis.fetch.bind(globalThis);
    const url = this.http.url(`${this.base}/stream`);
    const run = async () => {
      let failures = 0;
      let retryMs: number | null = null;
      while (!controller.signal.aborted) {
        try {
          const response = await fetchImpl(url, {
            headers: { authorization: this.http.authorization, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
            signal: controller.signal,
          });
          if (!response.ok) {
            const error = await toError(response);
            if (FATAL.has(response.status)) throw error;
            options.onError?.(error);
            retryMs = Math.max(retryMs ?? 0, Number(error.details.retry_after ?? 0) * 1000) || null;
          } else {
            failures = 0;
            options.onOpen?.();
            for await (const event of readSse(response.body!, (ms) => (retryMs = ms))) {
              if (event.id !== null) lastEventId = event.id;
              onEvent({ type: event.event, id: event.id, data: parse(event.data) });
            }
          }
        } catch (err) {
          if (controller.signal.aborted) return;
          if (err instanceof NotifydError && FATAL.has(err.status)) throw err;
          options.onError?.(err);
        }
        if (controller.signal.aborted) return;
        failures++;
        const backoff = Math.min(30_000, 500 * 2 ** Math.min(failures - 1, 6));
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, retryMs ?? backoff);
          controller.signal.addEventListener('abort', () => (clearTimeout(timer), resolve(undefined)), { once: true });
        });
      }
    };
    const done = run();
    return {
      get lastEventId() {
        return lastEventId;
      },
      close: () => controller.abort(),
      done,
    };
  }
}

function parse(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}
