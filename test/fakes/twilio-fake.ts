import { randomBytes } from 'node:crypto';
import { type FakeAnswer, ProviderFake, type RecordedRequest } from './provider-fake.js';

export const TWILIO_SID = `AC${'0123456789abcdef'.repeat(2)}`;
export const TWILIO_TOKEN = 'twilio-test-auth-token-0123456789';

/** Twilio's error body (https://www.twilio.com/docs/api/errors). */
export const twilioError = (
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
): FakeAnswer => ({
  status,
  json: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
  headers,
});

/**
 * Twilio's Messages API (POST /2010-04-01/Accounts/{sid}/Messages.json, form-encoded, Basic
 * auth), scripted by recipient like Twilio's magic test numbers: +15005550001 invalid (21211),
 * +15005550004 replied STOP (21610), +15005550009 not a mobile (21614), +15005550429 too many
 * requests (20429, Retry-After: 2), +15005550500 internal error, +15005550777 never answers.
 * `script` adds answers for other recipients.
 */
export class TwilioFake extends ProviderFake {
  readonly script = new Map<string, FakeAnswer>([
    ['+15005550001', twilioError(400, 21211, "The 'To' number +15005550001 is not a valid phone number.")],
    [
      'whatsapp:+15005550001',
      twilioError(400, 21211, "The 'To' number whatsapp:+15005550001 is not a valid phone number."),
    ],
    ['+15005550004', twilioError(400, 21610, 'Attempt to send to unsubscribed recipient')],
    ['+15005550009', twilioError(400, 21614, "'To' number is not a valid mobile number")],
    ['+15005550429', twilioError(429, 20429, 'Too Many Requests', { 'Retry-After': '2' })],
    ['+15005550500', twilioError(500, 20500, 'Internal Server Error')],
    ['+15005550777', 'stall'],
  ]);

  /** WhatsApp recipients whose 24-hour window is closed: free text gets 63016, a template goes through. */
  readonly windowClosed = new Set<string>();

  protected answer(request: RecordedRequest): FakeAnswer {
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(request.path);
    if (request.method !== 'POST' || !match)
      return twilioError(404, 20404, `The requested resource ${request.path} was not found`);
    const expected = `Basic ${Buffer.from(`${match[1]}:${TWILIO_TOKEN}`).toString('base64')}`;
    if (match[1] !== TWILIO_SID || request.headers.authorization !== expected)
      return twilioError(401, 20003, 'Authenticate');
    if (!String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
      return twilioError(400, 20001, 'Content-Type must be application/x-www-form-urlencoded');
    }
    const {
      To: to,
      From: from,
      Body: body,
      ContentSid: contentSid,
    } = request.body as Record<string, string | undefined>;
    if (!to) return twilioError(400, 21604, "A 'To' phone number is required.");
    if (!from) return twilioError(400, 21603, "A 'From' phone number is required.");
    if (!body && !contentSid) return twilioError(400, 21602, 'Message body is required.');
    if (this.windowClosed.has(to) && !contentSid) {
      return twilioError(
        400,
        63016,
        'Failed to send freeform message because you are outside the allowed window. If you are using WhatsApp, please use a Message Template.',
      );
    }
    const scripted = this.script.get(to);
    if (scripted) return scripted;
    return {
      status: 201,
      json: {
        sid: `SM${randomBytes(16).toString('hex')}`,
        account_sid: match[1],
        to,
        from,
        body: body ?? '',
        status: 'queued',
        num_segments: '1',
        direction: 'outbound-api',
        api_version: '2010-04-01',
        uri: `/2010-04-01/Accounts/${match[1]}/Messages.json`,
      },
    };
  }
}
