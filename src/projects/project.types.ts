/** The project a request acts for, resolved from its API key. */
export interface ProjectRef {
  id: string;
  name: string;
  channels: string[];
  settings: Record<string, unknown>;
  fromEmail: string | null;
  fromName: string | null;
  rateLimitPerMin: number;
}

export interface ProjectRow extends ProjectRef {
  apiKeyHint: string | null;
  secondaryApiKeyHint: string | null;
  keyRotatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Project ids are slugs: they appear in keys (`sk_<id>_…`) and URLs. */
export const PROJECT_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;
