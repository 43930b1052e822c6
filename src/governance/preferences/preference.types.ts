/** `topic`: a topic id; `workflow`: a workflow or template id; `all`: every message (scope '*'). */
export type PreferenceScopeKind = 'all' | 'topic' | 'workflow';

export interface PreferenceRow {
  projectId: string;
  subscriberId: string;
  /** A channel, or '*' for every channel. */
  channel: string;
  scopeKind: PreferenceScopeKind;
  scope: string;
  enabled: boolean;
  updatedAt: Date;
}
