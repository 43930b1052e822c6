import { type EvidenceKind, str, type SuppressionRequest } from '../provider-event.js';

/**
 * What an email event asks to suppress, the same for every email provider: a hard bounce
 * blocks the bounced addresses, a complaint the complaining ones (the same list unless the
 * provider names them apart, as SES does); anything else nothing.
 */
export function emailSuppression(
  kind: EvidenceKind,
  addresses: string[],
  complainedAddresses: string[] = addresses,
): SuppressionRequest | null {
  if (kind === 'bounced') return { channel: 'email', scope: 'all', reason: 'bounce', addresses };
  if (kind === 'complained')
    return { channel: 'email', scope: 'all', reason: 'complaint', addresses: complainedAddresses };
  return null;
}

/** How a bounce reads on the job: `bounced (Type/SubType): reason`. */
export function bounceError(type: string, subType: unknown, reason: string): string {
  return `bounced (${type}${str(subType) ? `/${subType as string}` : ''}): ${reason}`;
}

/** A clicked link as stored: only its host (notifyd §6.7: links can carry personal tokens). */
export function clickedHost(link: unknown): { host: string | null } | undefined {
  return typeof link === 'string' ? { host: hostOf(link) } : undefined;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}
