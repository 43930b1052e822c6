import { defineSection } from '../define-section.js';
import { envInt, envList } from '../env-helpers.js';

/** `https://host` or `http://host:port`: what a browser sends as Origin (no path, no slash). */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

/** The MCP endpoint (src/mcp/). */
export const mcpSection = defineSection(
  {
    /**
     * Comma list of browser origins allowed to call POST /mcp (DNS-rebinding defence). A request
     * without Origin (any non-browser MCP client) is always allowed; unset allows no browser origin.
     */
    MCP_ALLOWED_ORIGINS: envList().refine((list) => !list || list.every(isOrigin), {
      message:
        'must be a comma list of origins such as https://agent.example.com or http://localhost:6274 (scheme, host, optional port; no path or trailing slash)',
    }),
    /**
     * POST /mcp requests per minute for each operator key (admin, read-only), across replicas. A
     * project key spends its project's rate_limit_per_min instead, as on every other route.
     */
    MCP_OPERATOR_RATE_LIMIT_PER_MIN: envInt({ default: 600, min: 1, max: 1_000_000 }),
  },
  (env) => ({
    allowedOrigins: env.MCP_ALLOWED_ORIGINS ?? [],
    operatorRateLimitPerMin: env.MCP_OPERATOR_RATE_LIMIT_PER_MIN,
  }),
);

export type McpConfig = ReturnType<typeof mcpSection.build>;
