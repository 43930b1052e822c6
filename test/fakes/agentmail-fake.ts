import { type FakeAnswer, JsonProviderFake, type RecordedRequest } from './json-provider-fake.js';

/** How the fake answers one recipient: accept, an AgentMail error (`{name, message}`), or a stall. */
export type AgentmailScript =
  'accept' | 'stall' | { status: number; name: string; message: string; headers?: Record<string, string> };

/**
 * AgentMail on loopback: `POST /v0/inboxes/{inbox_id}/messages/send` with bearer auth, answering
 * `{message_id, thread_id}`, or AgentMail's `{name, message}` errors (404 NotFoundError for an
 * inbox the organisation does not have).
 */
export class AgentmailFake extends JsonProviderFake {
  script: (recipient: string) => AgentmailScript = () => 'accept';

  /** The API keys the fake's organisation has (a project's own key may be added). */
  readonly apiKeys: string[];

  constructor(
    apiKey: string,
    readonly inboxes: readonly string[],
  ) {
    super();
    this.apiKeys = [apiKey];
  }

  /** The inbox each request was sent from (decoded from the path). */
  inboxOf(request: RecordedRequest): string | undefined {
    const m = request.path.match(/^\/v0\/inboxes\/([^/]+)\/messages\/send$/);
    return m ? decodeURIComponent(m[1]) : undefined;
  }

  reset(): void {
    this.clear();
    this.script = () => 'accept';
  }

  protected answer(request: RecordedRequest): FakeAnswer {
    if (!this.apiKeys.some((key) => request.headers.authorization === `Bearer ${key}`))
      return { status: 403, body: { name: 'ForbiddenError', message: 'Forbidden' } };
    const inbox = this.inboxOf(request);
    if (request.method !== 'POST' || inbox === undefined)
      return { status: 404, body: { name: 'NotFoundError', message: 'Not found' } };
    if (!this.inboxes.includes(inbox))
      return { status: 404, body: { name: 'NotFoundError', message: 'Inbox not found' } };
    const to = request.body?.to;
    const script = this.script(Array.isArray(to) ? to[0] : to);
    if (script === 'stall') return { status: 0, stall: true };
    if (script !== 'accept')
      return { status: script.status, headers: script.headers, body: { name: script.name, message: script.message } };
    const n = this.nextId('');
    return { status: 200, body: { message_id: `<am-${n}@agentmail.to>`, thread_id: `thread-${n}` } };
  }
}
