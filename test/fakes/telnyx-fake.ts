import { randomUUID } from 'node:crypto';
import { type FakeAnswer, ProviderFake, type RecordedRequest } from './provider-fake.js';

export const TELNYX_KEY = 'KEY0123456789ABCDEF_telnyx_test';
export const TELNYX_PROFILE = '40017a0c-7a3c-4b6a-9a6f-4d3e2b1c0a99';

/** Telnyx's JSON:API error body. */
export const telnyxError = (
  status: number,
  code: string,
  title: string,
  detail?: string,
  headers?: Record<string, string>,
): FakeAnswer => ({
  status,
  json: {
    errors: [
      {
        code,
        title,
        ...(detail ? { detail } : {}),
        meta: { url: `https://developers.telnyx.com/docs/overview/errors/${code}` },
      },
    ],
  },
  headers,
});

/**
 * Telnyx's Messaging API (POST /v2/messages, JSON, Bearer key), scripted by recipient:
 * +15005550001 invalid 'to' (40310), +15005550004 STOP (40300), +15005550429 too many requests
 * (10011, Retry-After: 2), +15005550777 never answers; `script` adds others.
 */
export class TelnyxFake extends ProviderFake {
  readonly script = new Map<string, FakeAnswer>([
    ['+15005550001', telnyxError(422, '40310', "Invalid 'to' address", 'The destination number is invalid.')],
    ['+15005550004', telnyxError(422, '40300', 'Blocked due to STOP message', 'The recipient has opted out.')],
    ['+15005550429', telnyxError(429, '10011', 'Too many requests', undefined, { 'Retry-After': '2' })],
    ['+15005550777', 'stall'],
  ]);

  protected answer(request: RecordedRequest): FakeAnswer {
    if (request.method !== 'POST' || request.path !== '/v2/messages')
      return telnyxError(404, '10005', 'Resource not found');
    if (request.headers.authorization !== `Bearer ${TELNYX_KEY}`)
      return telnyxError(401, '10009', 'Authentication failed', 'Could not understand the provided credentials.');
    const { from, to, text, messaging_profile_id: profile } = request.body as Record<string, string | undefined>;
    if (!to) return telnyxError(422, '40310', "Invalid 'to' address");
    if (!from) return telnyxError(422, '40305', "Invalid 'from' address");
    if (!text) return telnyxError(422, '40009', 'Invalid message body');
    const scripted = this.script.get(to);
    if (scripted) return scripted;
    return {
      status: 200,
      json: {
        data: {
          record_type: 'message',
          id: randomUUID(),
          direction: 'outbound',
          type: 'SMS',
          from: { phone_number: from, carrier: 'Telnyx', line_type: 'Wireless' },
          to: [{ phone_number: to, status: 'queued', carrier: 'T-Mobile USA', line_type: 'Wireless' }],
          text,
          messaging_profile_id: profile ?? null,
          parts: 1,
          encoding: 'GSM-7',
        },
      },
    };
  }
}
