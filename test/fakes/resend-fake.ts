import { type FakeAnswer, JsonProviderFake, type RecordedRequest } from './json-provider-fake.js';

/** A Resend error as the API sends it: `{statusCode, name, message}` (resend.com/docs/api-reference/errors). */
export interface ResendError {
  status: number;
  name: string;
  message: string;
  headers?: Record<string, string>;
}

export type ResendScript = ResendError | 'stall' | 'accept';

/**
 * Resend's API on loopback: `POST /emails` and `POST /emails/batch`, bearer auth, answers in
 * Resend's shapes. Scripted by recipient; a batch holding a scripted recipient is refused whole,
 * as Resend validates a batch as one request.
 */
export class ResendFake extends JsonProviderFake {
  script: (recipient: string) => ResendScript = () => 'accept';

  constructor(readonly apiKey: string) {
    super();
  }

  /** Every email received, single or batched, in order. */
  get emails(): any[] {
    return this.requests
      .filter((r) => r.path === '/emails' || r.path === '/emails/batch')
      .flatMap((r) => (Array.isArray(r.body) ? r.body : [r.body]));
  }

  reset(): void {
    this.clear();
    this.script = () => 'accept';
  }

  protected answer(request: RecordedRequest): FakeAnswer {
    const auth = request.headers.authorization;
    if (!auth)
      return error({ status: 401, name: 'missing_api_key', message: 'Missing API key in the authorization header.' });
    if (auth !== `Bearer ${this.apiKey}`)
      return error({ status: 403, name: 'invalid_api_key', message: 'API key is invalid.' });
    if (request.method !== 'POST')
      return error({
        status: 405,
        name: 'method_not_allowed',
        message: 'Method is not allowed for the requested path.',
      });
    const emails =
      request.path === '/emails/batch' ? request.body : request.path === '/emails' ? [request.body] : undefined;
    if (!Array.isArray(emails))
      return error({ status: 404, name: 'not_found', message: 'The requested endpoint does not exist.' });
    if (request.path === '/emails/batch' && emails.length > 100) {
      return error({
        status: 422,
        name: 'validation_error',
        message: 'The `emails` array must contain at most 100 items.',
      });
    }
    for (const email of emails) {
      if (request.path === '/emails/batch' && email.attachments)
        return error({
          status: 422,
          name: 'validation_error',
          message: 'Attachments are not supported in batch sending.',
        });
      const answer = this.script(email.to?.[0]);
      if (answer === 'stall') return { status: 0, stall: true };
      if (answer !== 'accept') return error(answer);
    }
    if (request.path === '/emails') return { status: 200, body: { id: this.nextId('re_') } };
    return { status: 200, body: { data: emails.map(() => ({ id: this.nextId('re_') })) } };
  }
}

const error = (e: ResendError): FakeAnswer => ({
  status: e.status,
  headers: e.headers,
  body: { statusCode: e.status, name: e.name, message: e.message },
});
