/** The project a request acts for, resolved from its API key. */
export interface ProjectRef {
  id: string;
  name: string;
  channels: string[];
  settings: Record<string, unknown>;
  fromEmail: string | null;
  fromName: string | null;
  rateLimitPerMin: number;
  /**
   * Changes only when the project is created (from a sequence): a project deleted and created
   * again with the same id has another epoch, and subscriber tokens of the old one are refused.
   * Text, as bigint arrives from pg; 0 for projects created before epochs existed.
   */
  tokenEpoch: string;
  /**
   * Who is sending for the project in this request, recorded on its jobs (jobs.created_by):
   * the hint of the project key it presented (`sk_shop_…1f2e`), or the operator caller
   * (`admin`, `mcp`, `workflow`). Absent on a project read by id.
   */
  createdBy?: string;
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

/** The bounds of a project's `rate_limit_per_min`: the DTOs, the MCP tools and the 0.x import's clamp. */
export const RATE_LIMIT_PER_MIN = { min: 1, max: 10_000_000 };
