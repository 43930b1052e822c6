import type { FindingRule } from '../digest.types.js';

/**
 * A project that sends email with no sender of its own while the instance has none either:
 * its mail goes out from notifyd's placeholder address, which no provider accepts.
 */
export const senderMissing: FindingRule = ({ projects, instance }) =>
  instance.email_from
    ? []
    : projects
        .filter((p) => p.channels.includes('email') && !p.from_email)
        .map((p) => ({
          severity: 'warning' as const,
          code: 'sender_missing',
          message: `Project ${p.id} sends email but has no sender (from_email) and EMAIL_FROM is not set: its mail would leave as notifications@example.com.`,
          action: `PATCH /v1/admin/projects/${p.id} with {"from_email": "…", "from_name": "…"} (MCP update_project) using an address verified with the provider, or set EMAIL_FROM.`,
          evidence: { project_id: p.id, from_email: null, email_from: null },
        }));
