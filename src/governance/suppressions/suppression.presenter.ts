import { maskRecipient } from '../../common/pii/mask.js';
import { encodeTimeIdCursor } from '../../common/pagination/cursor.js';
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
  return encodeTimeIdCursor(s.createdAt.toISOString(), s.id);
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
