import { signUnsubscribeToken, type SigningKey, TOKEN_LIFETIME_SECONDS } from './unsubscribe-token.js';

/** Where one-click unsubscribe links point, under PUBLIC_URL. */
export const UNSUBSCRIBE_PATH = '/u/';

interface Signer {
  publicUrl: string;
  key: SigningKey;
}

/**
 * The signer of this process, set by UnsubscribeService when the application starts (it holds
 * PUBLIC_URL and the current key). A plain function, so that connectors building headers need
 * no injection: `unsubscribeUrl(message)`.
 */
let signer: Signer | undefined;

export function registerUnsubscribeSigner(next: Signer | undefined): void {
  signer = next;
}

/**
 * The RFC 8058 one-click link for a message: a signed token for its project, channel, address
 * and topic. Undefined when PUBLIC_URL is not set (there is no public address to point to).
 */
export function unsubscribeUrl(job: {
  projectId: string;
  channel: string;
  recipient: string;
  topic?: string | null;
  payload?: Record<string, unknown>;
}): string | undefined {
  if (!signer) return undefined;
  const topic = job.topic ?? (typeof job.payload?.topic === 'string' ? job.payload.topic : null);
  const token = signUnsubscribeToken(
    {
      projectId: job.projectId,
      channel: job.channel,
      address: job.recipient,
      topic,
      expiresAt: Math.floor(Date.now() / 1000) + TOKEN_LIFETIME_SECONDS,
    },
    signer.key,
  );
  return `${signer.publicUrl}${UNSUBSCRIBE_PATH}${token}`;
}
