import { defineSection } from '../define-section.js';
import { envList } from '../env-helpers.js';

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
      message: 'must be a comma list of origins such as https://agent.example.com or http://localhost:6274 (scheme, host, optional port; no path or trailing slash)',
    }),
  },
  (env) => ({
    allowedOrigins: env.MCP_ALLOWED_ORIGINS ?? [],
  }),
);

export type McpConfig = ReturnType<typeof mcpSection.build>;
