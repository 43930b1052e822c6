import twilio from 'twilio';
import { TwilioHttpError } from './twilio-http-error.js';

type RequestOptions = Parameters<InstanceType<typeof twilio.RequestClient>['request']>[0];
type Response = Awaited<ReturnType<InstanceType<typeof twilio.RequestClient>['request']>>;

/**
 * The SDK's own transport (its axios client: Basic auth, form encoding, User-Agent), with two
 * changes: requests to https://api.twilio.com go to TWILIO_API_BASE (a local fake in tests),
 * and an answer outside 2xx is thrown as TwilioHttpError. The SDK's RestException drops the
 * response headers, and a 429's Retry-After is one of them.
 */
export class TwilioTransport extends twilio.RequestClient {
  constructor(
    private readonly apiBase: string,
    timeoutMs: number,
  ) {
    // autoRetry stays off: the queue owns retries and lane pauses.
    super({ timeout: timeoutMs, keepAlive: true, autoRetry: false });
  }

  override async request<TData = any>(opts: RequestOptions): Promise<Response & { body: TData }> {
    const uri = new URL(opts.uri);
    const target =
      uri.hostname === 'api.twilio.com' ? new URL(`${uri.pathname}${uri.search}`, `${this.apiBase}/`).href : opts.uri;
    const response = await super.request({ ...opts, uri: target, allowRedirects: false });
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw new TwilioHttpError(response.statusCode, response.body, response.headers as Record<string, string>);
    }
    return response as Response & { body: TData };
  }
}
