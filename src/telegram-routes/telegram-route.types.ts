/** An owner's bot as stored (telegram_credentials); the sealed fields never leave the module. */
export interface CredentialRow {
  id: string;
  projectId: string;
  owner: string;
  botId: string;
  botUsername: string;
  botTokenSealed: string;
  tokenHint: string;
  connectionId: string;
  webhookSecretSealed: string;
  webhookRegistered: boolean;
  keyId: string;
  createdAt: Date;
  updatedAt: Date;
}

/** An owner's chat (telegram_destinations). */
export interface DestinationRow {
  id: string;
  projectId: string;
  owner: string;
  credentialId: string;
  address: string;
  threadId: string | null;
  verified: boolean;
  createdAt: Date;
}

/** A verified chat as POST /v1/telegram/lookup returns it. */
export interface LookupRow {
  owner: string;
  routeId: string;
  address: string;
  threadId: string | null;
  botUsername: string;
  verified: boolean;
}

/** A route as the worker reads it for a send. */
export interface RouteForSend {
  id: string;
  projectId: string;
  owner: string;
  botTokenSealed: string;
  address: string | null;
  threadId: string | null;
  verified: boolean;
}

export type LinkKind = 'private' | 'group';
