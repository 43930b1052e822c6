import { ApiError } from '../../common/errors/api-error.js';
import type { Channel } from '../../domain/channels.js';
import type { CreateSuppressionDto } from './dto/suppression.dto.js';
import type { SuppressionReason, SuppressionScope } from './suppression.types.js';

/**
 * The channel, address, scope and reason a create request asks for: notifyd's `{email}` or
 * `{channel, address}`; a marketing-scope entry is an unsubscribe, a full block is manual.
 */
export function suppressionRequest(body: CreateSuppressionDto): {
  channel: Channel;
  address: string;
  scope: SuppressionScope;
  reason: SuppressionReason;
} {
  if (body.email !== undefined && body.address !== undefined) {
    throw ApiError.unprocessable('validation_failed', 'Send either email, or channel and address, not both.');
  }
  if (body.email !== undefined && body.channel !== undefined && body.channel !== 'email') {
    throw ApiError.unprocessable(
      'validation_failed',
      `email applies to the email channel; for ${body.channel} send address instead.`,
    );
  }
  const scope = body.scope ?? 'all';
  return {
    channel: body.email !== undefined ? 'email' : (body.channel ?? 'email'),
    address: (body.email ?? body.address)!,
    scope,
    reason: scope === 'marketing' ? 'unsubscribe' : 'manual',
  };
}
