import { type FakeAnswer, JsonProviderFake, type RecordedRequest } from './json-provider-fake.js';

export type SendgridScript =
  | 'accept'
  | 'stall'
  | { status: number; errors: { message: string; field?: string | null }[]; headers?: Record<string, string> };

/** SendGrid v3 Mail Send on loopback: bearer auth, 202 with X-Message-Id, `{"errors": […]}` refusals. */
export class SendgridFake extends JsonProviderFake {
  script: (recipient: string) => SendgridScript = () => 'accept';

  constructor(readonly apiKey: string) {
    super();
  }

  reset(): void {
    this.clear();
    this.script = () => 'accept';
  }

  protected answer(request: RecordedRequest): FakeAnswer {
    if (request.headers.authorization !== `Bearer ${this.apiKey}`) {
      return {
        status: 401,
        body: {
          errors: [
            { message: 'The provided authorization grant is invalid, expired, or revoked', field: null, help: null },
          ],
        },
      };
    }
    if (request.path !== '/v3/mail/send')
      return { status: 404, body: { errors: [{ message: 'Not found', field: null }] } };
    const script = this.script(request.body?.personalizations?.[0]?.to?.[0]?.email);
    if (script === 'stall') return { status: 0, stall: true };
    if (script !== 'accept')
      return {
        status: script.status,
        headers: script.headers,
        body: { errors: script.errors.map((e) => ({ field: null, help: null, ...e })) },
      };
    return { status: 202, headers: { 'x-message-id': this.nextId('sg-') } };
  }
}
