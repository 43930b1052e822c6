import { type FakeAnswer, JsonProviderFake, type RecordedRequest } from './json-provider-fake.js';

/**
 * How the fake answers one recipient: accept (delivered), queue (accepted for later delivery),
 * bounce (listed in `permanent_bounces`), a Cloudflare error envelope with its HTTP status
 * (`success: false` with a 200 too), or a stall.
 */
export type CloudflareScript =
  | 'accept'
  | 'queue'
  | 'bounce'
  | 'stall'
  | { status: number; errors: { code: number; message: string }[]; headers?: Record<string, string> };

/**
 * Cloudflare Email Service on loopback: `POST /accounts/{account_id}/email/sending/send` with a
 * bearer token, answering Cloudflare's `{success, errors, messages, result}` envelope, the result
 * being `{message_id, delivered, queued, permanent_bounces}`.
 */
export class CloudflareEmailFake extends JsonProviderFake {
  script: (recipient: string) => CloudflareScript = () => 'accept';

  constructor(
    readonly accountId: string,
    readonly apiToken: string,
  ) {
    super();
  }

  reset(): void {
    this.clear();
    this.script = () => 'accept';
  }

  protected answer(request: RecordedRequest): FakeAnswer {
    const failure = (status: number, code: number, message: string): FakeAnswer => ({
      status,
      body: { success: false, errors: [{ code, message }], messages: [], result: null },
    });
    if (request.headers.authorization !== `Bearer ${this.apiToken}`) return failure(403, 10000, 'Authentication error');
    if (request.method !== 'POST' || request.path !== `/accounts/${this.accountId}/email/sending/send`)
      return failure(404, 7003, 'Could not route to the requested path');
    const to: string = request.body?.to;
    const script = this.script(to);
    if (script === 'stall') return { status: 0, stall: true };
    if (typeof script === 'object')
      return {
        status: script.status,
        headers: script.headers,
        body: { success: false, errors: script.errors, messages: [], result: null },
      };
    const result = {
      message_id: `cf-${this.nextId('')}`,
      delivered: script === 'accept' ? [to] : [],
      queued: script === 'queue' ? [to] : [],
      permanent_bounces: script === 'bounce' ? [to] : [],
    };
    return { status: 200, body: { success: true, errors: [], messages: [], result } };
  }
}
