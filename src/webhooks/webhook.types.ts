/** An endpoint as stored, without its secrets. */
export interface EndpointRow {
  id: string;
  projectId: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  secretHint: string;
  signatureFormat: 'standard' | 'notifyd-0x';
  previousSecretExpiresAt: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  /** Failed attempts in a row; the circuit breaker pauses the endpoint from 5. */
  consecutiveFailures: number;
  /** While in the future, no delivery goes to the endpoint; once past, one probe may. */
  pausedUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What the sender needs of an endpoint: where, whether, and the encrypted secrets. */
export interface EndpointSecrets {
  id: string;
  url: string;
  enabled: boolean;
  secretEnc: Buffer;
  previousSecretEnc: Buffer | null;
  lastSuccessAt: Date | null;
  /** Failed attempts in a row when the batch was claimed (the circuit breaker's count). */
  consecutiveFailures: number;
  /** 'notifyd-0x': also signed the way notifyd 0.x signed (endpoints imported from it). */
  signatureFormat: 'standard' | 'notifyd-0x';
}

/** What creating an endpoint stores: the caller's fields, the sealed secret and its hint. */
export type NewEndpoint = Pick<
  EndpointRow,
  'id' | 'projectId' | 'url' | 'description' | 'events' | 'enabled' | 'secretHint' | 'signatureFormat'
> &
  Pick<EndpointSecrets, 'secretEnc'>;

/** One entry of a delivery's attempt log. */
export interface AttemptEntry {
  attempt: number;
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

export interface DeliveryRow {
  id: string;
  endpointId: string;
  eventType: string;
  payload: Record<string, unknown>;
  status: string;
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  lastStatusCode: number | null;
  lastError: string | null;
  attemptLog: AttemptEntry[];
  createdAt: Date;
  finishedAt: Date | null;
  /** created_at at full (microsecond) precision, for keyset cursors. */
  createdKey: string;
}

/**
 * A delivery a worker holds (status processing, `attempts` counting this attempt), or, when
 * `deferred`, one the claim held back because its endpoint is paused (not held, no payload).
 */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  projectId: string;
  eventType: string;
  payload: Record<string, unknown>;
  attempts: number;
  maxAttempts: number;
  createdAt: Date;
  deferred: boolean;
}

/** The webhook-id of a delivery: stable across its retries, so receivers can deduplicate. */
export const webhookId = (deliveryId: string) => `msg_${deliveryId.replace(/-/g, '')}`;
