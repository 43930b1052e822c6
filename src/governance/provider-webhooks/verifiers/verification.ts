import { timingSafeEqual } from 'node:crypto';

/** Why a webhook was refused. The message is for logs and the 401 body: it never holds a secret. */
export class VerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VerificationError';
  }
}

/** Constant-time equality of two strings (different lengths are unequal without a timing leak of content). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A header's single value (Fastify gives arrays for repeated headers). */
export function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
