import { type FakeAnswer, JsonProviderFake, type RecordedRequest } from './json-provider-fake.js';

/**
 * How the fake answers one recipient: accept, a Postmark ErrorCode (HTTP 422 alone, or that
 * item's result inside a batch's 200), an HTTP failure of the whole request, or a stall.
 */
export type PostmarkScript =
  | 'accept'
  | 'stall'
  | { errorCode: number; message: string }
  | { http: number; message: string; headers?: Record<string, string> };

/** Postmark's API on loopback: `POST /email` and `POST /email/batch`, server-token auth, Postmark's shapes. */
export class PostmarkFake extends JsonProviderFake {
  script: (recipient: string) => PostmarkScript = () => 'accept';

  constructor(readonly serverToken: string) {
    super();
  }

  get messages(): any[] {
    return this.requests.flatMap((r) => (Array.isArray(r.body) ? r.body : [r.body]));
  }

  reset(): void {
    this.clear();
    this.script = () => 'accept';
  }

  protected answer(request: RecordedRequest): FakeAnswer {
    if (request.headers['x-postmark-server-token'] !== this.serverToken) {
      return {
        status: 401,
        body: {
          ErrorCode: 10,
          Message: 'The Server Token you provided in the X-Postmark-Server-Token request header was invalid.',
        },
      };
    }
    const batch = request.path === '/email/batch';
    if (!batch && request.path !== '/email') return { status: 404, body: { ErrorCode: 404, Message: 'Not found' } };
    const messages: { To: string }[] = batch ? request.body : [request.body];
    if (batch && messages.length > 500)
      return { status: 422, body: { ErrorCode: 410, Message: 'Too many batch messages.' } };
    const scripts = messages.map((m) => this.script(m.To));
    if (scripts.includes('stall')) return { status: 0, stall: true };
    const http = scripts.find(
      (s): s is { http: number; message: string; headers?: Record<string, string> } =>
        typeof s === 'object' && 'http' in s,
    );
    if (http)
      return {
        status: http.http,
        headers: http.headers,
        body: { ErrorCode: http.http === 429 ? 429 : 0, Message: http.message },
      };
    const results = messages.map((m, i) => {
      const s = scripts[i];
      if (typeof s === 'object' && 'errorCode' in s) return { ErrorCode: s.errorCode, Message: s.message };
      return {
        To: m.To,
        SubmittedAt: new Date().toISOString(),
        MessageID: `pm-${this.nextId('')}`,
        ErrorCode: 0,
        Message: 'OK',
      };
    });
    if (batch) return { status: 200, body: results };
    return { status: results[0].ErrorCode === 0 ? 200 : 422, body: results[0] };
  }
}
