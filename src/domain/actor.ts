/** Who performed an admin action (an operator key's name, `system`, an MCP caller), for the audit log. */
export interface Actor {
  actor: string;
  ip?: string;
}
