import { randomBytes } from 'node:crypto';
import { type FakeAnswer, ProviderFake, type RecordedRequest } from './provider-fake.js';

export const META_TOKEN = 'EAAG-meta-test-access-token-0123456789';
export const META_PHONE_NUMBER_ID = '106540352242922';
export const META_VERSION = 'v23.0';

/** Graph's error body. Graph answers most errors with HTTP 400; the code says what happened. */
export const graphError = (
  code: number,
  message: string,
  options: { status?: number; details?: string; headers?: Record<string, string> } = {},
): FakeAnswer => ({
  status: options.status ?? 400,
  json: {
    error: {
      message: `(#${code}) ${message}`,
      type: 'OAuthException',
      code,
      ...(options.details ? { error_data: { messaging_product: 'whatsapp', details: options.details } } : {}),
      fbtrace_id: 'AbCdEf123',
    },
  },
  headers: options.headers,
});

/**
 * The WhatsApp Cloud API (POST /{version}/{phone-number-id}/messages, JSON, Bearer token),
 * scripted by recipient: `windowClosed` numbers refuse free text with 131047 and accept
 * templates; +15005550004 stopped marketing (131050); +15005550429 hits throughput (130429);
 * +15005550777 never answers; `script` adds others.
 */
export class MetaGraphFake extends ProviderFake {
  readonly windowClosed = new Set<string>(['+15550100047']);
  readonly script = new Map<string, FakeAnswer>([
    [
      '+15005550004',
      graphError(
        131050,
        'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.',
      ),
    ],
    [
      '+15005550429',
      graphError(130429, 'Rate limit hit', { details: 'Cloud API message throughput has been reached.' }),
    ],
    ['+15005550777', 'stall'],
  ]);

  protected answer(request: RecordedRequest): FakeAnswer {
    if (request.method !== 'POST' || request.path !== `/${META_VERSION}/${META_PHONE_NUMBER_ID}/messages`) {
      return graphError(100, 'Unsupported post request.', { status: 400 });
    }
    if (request.headers.authorization !== `Bearer ${META_TOKEN}`) {
      return graphError(190, 'Invalid OAuth access token - Cannot parse access token', { status: 401 });
    }
    const body = request.body as {
      messaging_product?: string;
      to?: string;
      type?: string;
      text?: { body?: string };
      template?: { name?: string };
    };
    if (body.messaging_product !== 'whatsapp') return graphError(100, 'The parameter messaging_product is required.');
    if (!body.to) return graphError(100, 'The parameter to is required.');
    if (body.type === 'text' && !body.text?.body) return graphError(100, "The parameter text['body'] is required.");
    if (body.type === 'template' && !body.template?.name) return graphError(131008, 'Required parameter is missing');
    if (body.type === 'text' && this.windowClosed.has(body.to)) {
      return graphError(131047, 'Re-engagement message', {
        details:
          'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
      });
    }
    const scripted = this.script.get(body.to);
    if (scripted) return scripted;
    return {
      status: 200,
      json: {
        messaging_product: 'whatsapp',
        contacts: [{ input: body.to, wa_id: body.to.replace(/^\+/, '') }],
        messages: [{ id: `wamid.${randomBytes(24).toString('base64url')}`, message_status: 'accepted' }],
      },
    };
  }
}
