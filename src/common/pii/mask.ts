/**
 * Masks for logs and operator listings: enough to recognise a recipient, not enough to
 * harvest it. `jane@example.com` → `j***@example.com`; `+33612345678` → `***5678`.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return maskOpaque(email);
  const local = email.slice(0, at);
  return `${local.length <= 2 ? '**' : `${local[0]}***`}${email.slice(at)}`;
}

export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `***${digits.slice(-4)}`;
}

export function maskOpaque(value: string): string {
  return value.length <= 8 ? '***' : `${value.slice(0, 8)}...`;
}

/** Masks any recipient by its shape: email, phone, or an opaque token/id. */
export function maskRecipient(recipient: string, channel?: string): string {
  if (channel === 'in_app') return recipient;
  if (recipient.includes('@') && !recipient.startsWith('http')) return maskEmail(recipient);
  if (/^\+?[\d\s().-]{6,}$/.test(recipient)) return maskPhone(recipient);
  return maskOpaque(recipient);
}
