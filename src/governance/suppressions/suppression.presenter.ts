import { maskRecipient } from '../../common/pii/mask.js';
import type { AdminSuppressionDto, SuppressionDto } from './dto/suppression.dto.js';
import type { SuppressionRow } from './suppression.types.js';

/** A suppression as the project API shows it: the project's own data, unmasked. */
export function presentSuppression(s: SuppressionRow): SuppressionDto {
  return {
    id: s.id,
    project_id: s.projectId,
    channel: s.channel,
    address: s.address,
    email: s.channel === 'email' ? s.address : null,
    scope: s.scope,
    reason: s.reason,
    source: s.source,
    detail: s.detail,
    evidence: s.evidence,
    source_job_id: s.sourceJobId,
    provider_event_id: s.providerEventId,
    created_at: s.createdAt.toISOString(),
    released_at: s.releasedAt?.toISOString() ?? null,
    released_by: s.releasedBy,
    release_reason: s.releaseReason,
  };
}

export function encodeSuppressionCursor(s: SuppressionRow): string {
  return Buffer.from(JSON.stringify([s.createdAt.toISOString(), s.id]), 'utf8').toString('base64url');
}

/** undefined when the cursor is not one the API returned. */
export function decodeSuppressionCursor(cursor: string): { createdAt: string; id: string } | undefined {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof createdAt === 'string' && !Number.isNaN(Date.parse(createdAt)) && typeof id === 'string' && /^[0-9a-f-]{36}$/i.test(id)) return { createdAt, id };
  } catch {
    // fall through
  }
  return undefined;
}

/** Operators' view: recipients masked (they are the projects' data, not the operator's). */
export function presentSuppressionMasked(s: SuppressionRow): AdminSuppressionDto {
  const address = maskRecipient(s.address, s.channel);
  return {
    id: s.id,
    project_id: s.projectId,
    channel: s.channel,
    address,
    email: s.channel === 'email' ? address : null,
    reason: s.reason,
    scope: s.scope,
    source: s.source,
    detail: s.detail,
    created_at: s.createdAt.toISOString(),
  };
}
