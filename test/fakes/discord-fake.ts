import { type FakeAnswer, ProviderFake, type RecordedRequest } from './provider-fake.js';

export const discordError = (
  status: number,
  code: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers?: Record<string, string>,
): FakeAnswer => ({
  status,
  json: { message, code, ...extra },
  headers,
});

/**
 * Discord webhook execution (`POST /api/webhooks/{id}/{token}`, JSON). With `?wait=true` it
 * answers the created message; without it, 204. Scripted by webhook id.
 */
export class DiscordFake extends ProviderFake {
  readonly hooks = new Map<string, FakeAnswer>();
  private sequence = 1_180_000_000_000_000_000n;

  protected answer(request: RecordedRequest): FakeAnswer {
    const match = /^\/api\/webhooks\/(\d+)\/([\w-]+)$/.exec(request.path);
    if (request.method !== 'POST' || !match) return discordError(404, 0, '404: Not Found');
    const scripted = this.hooks.get(match[1]);
    if (scripted) return scripted;
    const { content, embeds } = request.body as { content?: string; embeds?: unknown[] };
    if (!content && !(embeds && embeds.length)) return discordError(400, 50006, 'Cannot send an empty message');
    if (request.query.get('wait') !== 'true') return { status: 204, text: '' };
    const id = String(++this.sequence);
    return {
      status: 200,
      json: {
        id,
        type: 0,
        content: content ?? '',
        embeds: embeds ?? [],
        channel_id: '1180000000000000001',
        webhook_id: match[1],
      },
    };
  }
}
