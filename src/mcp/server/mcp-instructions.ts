/** What the server tells an agent at initialize: how to operate notifyd, in order. */
export const MCP_INSTRUCTIONS = `notifyd sends notifications (email, SMS, WhatsApp, push, chat, in-app) from a PostgreSQL queue.
How to operate it:
1. Start with digest: a ranked list of findings (critical first), each naming the action that fixes it.
2. Investigate: list_jobs (filter by project_id, status, channel, recipient, topic, since), get_job and job_timeline for one job; list_lanes for pacing and pauses; list_webhooks and webhook_deliveries for outbound webhooks; list_suppressions when messages fail as suppressed.
3. Fix: update_project (sender, channels, rate), resume_lane, release_suppression, retry_job after the cause is fixed, cancel_job for what must not go out.
4. Prove it: send_test sends one real message through a project's channel; get_job shows its outcome.
Configure: create_project, set_cap, set_send_window, create_webhook / update_webhook, upsert_workflow, register_push_token; list_audit_log (admin key) shows who changed what.
Tools that change state need the admin key; the read-only key lists and runs only read-only tools. Recipients in operator listings are masked. Do not poll one job faster than every 2 s.`;
