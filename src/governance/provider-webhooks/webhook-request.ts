import { ApiError } from '../../common/errors/api-error.js';
import { VerificationError } from './verifiers/verification.js';

/** 503 when the provider's secret is not configured: unsigned evidence is never accepted. */
export function requireSecret<T>(value: T | undefined, variable: string, provider: string): T {
  if (value === undefined || value === null || value === '') {
    throw ApiError.unavailable(
      'webhook_not_configured',
      `${provider} webhooks are off: set ${variable} to the signing secret from the ${provider} dashboard.`,
    );
  }
  return value;
}

/** Runs a verifier; a refusal becomes a 401 that says what failed (never the expected value). */
export function verified<T>(provider: string, verify: () => T): T {
  const refuse = (err: unknown): never => {
    if (err instanceof VerificationError)
      throw new ApiError(401, 'invalid_signature', `${provider} webhook refused: ${err.message}.`);
    throw err;
  };
  try {
    const result = verify();
    // Asynchronous verifiers (a certificate to fetch) refuse through their promise.
    return (result instanceof Promise ? result.catch(refuse) : result) as T;
  } catch (err) {
    return refuse(err);
  }
}

/** JSON.parse of a verified body; malformed JSON is the sender's 400. */
export function parseJsonBody(raw: Buffer, provider: string): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw ApiError.badRequest('invalid_json', `The ${provider} webhook body is not valid JSON.`);
  }
}

/** Reads a verified payload into events; one that parsed but is not the provider's shape is the sender's 400. */
export function understood<T>(provider: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw ApiError.badRequest(
      'invalid_payload',
      `The ${provider} webhook payload is not understood: ${(err as Error).message}.`,
    );
  }
}
