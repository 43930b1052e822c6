import aws4 from 'aws4';
import { type FakeAnswer, JsonProviderFake, type RecordedRequest } from './json-provider-fake.js';

/** How the fake answers one recipient: accept, an SES exception for the whole request, a bulk entry status, or a stall. */
export type SesScript =
  'accept' | 'stall' | { exception: string; status: number; message: string } | { entryStatus: string; error: string };

/**
 * Amazon SES v2 on loopback: `POST /v2/email/outbound-emails` and `/v2/email/outbound-bulk-emails`.
 * Every request's SigV4 signature is checked by signing it again with the same credentials (a
 * wrong signature answers 403 as AWS does). Errors come as AWS sends them: the status, the
 * exception in `x-amzn-ErrorType`, `{"message": …}`; bulk entries carry their own Status.
 */
export class SesFake extends JsonProviderFake {
  script: (recipient: string) => SesScript = () => 'accept';

  constructor(private readonly credentials: { accessKeyId: string; secretAccessKey: string; region: string }) {
    super();
  }

  reset(): void {
    this.clear();
    this.script = () => 'accept';
  }

  protected answer(request: RecordedRequest): FakeAnswer {
    if (!this.signatureValid(request)) {
      return exception(
        403,
        'InvalidSignatureException',
        'The request signature we calculated does not match the signature you provided.',
      );
    }
    if (request.path === '/v2/email/outbound-emails') {
      const script = this.script(request.body.Destination.ToAddresses[0]);
      if (script === 'stall') return { status: 0, stall: true };
      if (typeof script === 'object' && 'exception' in script)
        return exception(script.status, script.exception, script.message);
      if (typeof script === 'object') return exception(400, 'MessageRejected', script.error);
      return { status: 200, body: { MessageId: this.nextId('ses-') } };
    }
    if (request.path === '/v2/email/outbound-bulk-emails') {
      const entries: { Destination: { ToAddresses: string[] } }[] = request.body.BulkEmailEntries;
      if (entries.length > 50)
        return exception(400, 'BadRequestException', 'BulkEmailEntries must contain at most 50 entries.');
      const scripts = entries.map((e) => this.script(e.Destination.ToAddresses[0]));
      if (scripts.includes('stall')) return { status: 0, stall: true };
      const whole = scripts.find(
        (s): s is { exception: string; status: number; message: string } => typeof s === 'object' && 'exception' in s,
      );
      if (whole) return exception(whole.status, whole.exception, whole.message);
      return {
        status: 200,
        body: {
          BulkEmailEntryResults: scripts.map((s) =>
            typeof s === 'object' && 'entryStatus' in s
              ? { Status: s.entryStatus, Error: s.error }
              : { Status: 'SUCCESS', MessageId: this.nextId('ses-') },
          ),
        },
      };
    }
    return exception(404, 'NotFoundException', `Unknown path ${request.path}`);
  }

  /** Signs the request again from the headers it says it signed; the signatures must match. */
  private signatureValid(request: RecordedRequest): boolean {
    const authorization = request.headers.authorization ?? '';
    const signedHeaders = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';');
    if (!signedHeaders || !authorization.startsWith(`AWS4-HMAC-SHA256 Credential=${this.credentials.accessKeyId}/`))
      return false;
    if (!authorization.includes(`/${this.credentials.region}/ses/aws4_request`)) return false;
    const headers = Object.fromEntries(signedHeaders.map((name) => [name, request.headers[name] ?? '']));
    const again = aws4.sign(
      {
        host: request.headers.host,
        path: request.path,
        method: request.method,
        service: 'ses',
        region: this.credentials.region,
        body: request.raw,
        headers,
      },
      { accessKeyId: this.credentials.accessKeyId, secretAccessKey: this.credentials.secretAccessKey },
    );
    return (again.headers?.Authorization ?? again.headers?.authorization) === authorization;
  }
}

const exception = (status: number, type: string, message: string): FakeAnswer => ({
  status,
  headers: { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazonaws.sesv2/` },
  body: { message },
});
