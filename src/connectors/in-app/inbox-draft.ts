/**
 * An in-app message waiting to be written. The in-app connector prepares it; the worker
 * writes it in the same statement that marks its job sent (inbox-finalise.sql.ts).
 */
export interface InboxDraft {
  /** The inbox message id, chosen up front: it is also the job's provider_message_id. */
  messageId: string;
  subscriberId: string;
  title: string | null;
  body: string;
  icon: string;
  url: string | null;
  data: Record<string, unknown>;
}
