/**
 * Who performed an action, for the audit log: an operator key's name, `api_key` (a project key,
 * see @ApiKeyActor), `system`, an MCP caller; with the caller's address when there is one.
 */
export interface Actor {
  actor: string;
  ip?: string;
}
