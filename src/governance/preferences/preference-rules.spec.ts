import type { PreferenceRow } from './preference.types.js';
import { optOutReason, scopeIdsOf } from './preference-rules.js';

const row = (
  channel: string,
  scopeKind: PreferenceRow['scopeKind'],
  scope: string,
  enabled: boolean,
): PreferenceRow => ({
  projectId: 'p',
  subscriberId: 's',
  channel,
  scopeKind,
  scope,
  enabled,
  updatedAt: new Date(),
});
const email = (topic: string | null, scopeIds: string[] = []) => ({ channel: 'email', topic, scopeIds });

describe('optOutReason (notifyd precedence, default allow)', () => {
  it('allows everything without preferences', () => {
    expect(optOutReason([], email('tips', ['wf']))).toBeNull();
  });
  it('(channel, topic) beats (*, topic), which beats the workflow/template scope', () => {
    const prefs = [
      row('*', 'topic', 'tips', false),
      row('email', 'topic', 'tips', true),
      row('email', 'workflow', 'wf', false),
    ];
    expect(optOutReason(prefs, email('tips', ['wf']))).toBeNull();
    expect(optOutReason(prefs, { channel: 'sms', topic: 'tips', scopeIds: [] })).toBe(
      "subscriber opted out of topic 'tips'",
    );
    expect(optOutReason(prefs, email('news', ['wf']))).toBe("subscriber opted out of 'wf' on email");
  });
  it('the workflow/template scope beats (channel, *), which beats (*, *)', () => {
    const prefs = [
      row('*', 'all', '*', false),
      row('email', 'all', '*', true),
      row('email', 'workflow', 'order_shipped', false),
    ];
    expect(optOutReason(prefs, email(null))).toBeNull();
    expect(optOutReason(prefs, email(null, ['order_shipped']))).toBe(
      "subscriber opted out of 'order_shipped' on email",
    );
    expect(optOutReason(prefs, { channel: 'sms', topic: null, scopeIds: [] })).toBe(
      'subscriber opted out of all notifications',
    );
    expect(optOutReason([row('email', 'all', '*', false)], email('tips'))).toBe('subscriber opted out of email');
  });
  it('a topic and a workflow of the same name never match each other', () => {
    expect(optOutReason([row('email', 'workflow', 'tips', false)], email('tips'))).toBeNull();
    expect(optOutReason([row('email', 'topic', 'tips', false)], email(null, ['tips']))).toBeNull();
  });
  it('takes the workflow id from the vars, then the template id', () => {
    expect(scopeIdsOf({ vars: { workflow_id: 'onboarding' } }, 'welcome')).toEqual(['onboarding', 'welcome']);
    expect(scopeIdsOf({}, null)).toEqual([]);
  });
  it('an opt-out of the marketing topic stops every marketing message, topic or not; a more specific opt-in wins', () => {
    const prefs = [row('*', 'topic', 'marketing', false), row('email', 'topic', 'tips', true)];
    expect(optOutReason(prefs, { ...email(null), marketing: true })).toBe('subscriber opted out of marketing');
    expect(optOutReason(prefs, { ...email('marketing:spring'), marketing: true })).toBe(
      'subscriber opted out of marketing',
    );
    expect(optOutReason(prefs, { ...email('marketing'), marketing: true })).toBe(
      "subscriber opted out of topic 'marketing'",
    );
    expect(optOutReason(prefs, { ...email('tips'), marketing: true })).toBeNull();
    // Not marketing: the marketing preference does not apply.
    expect(optOutReason(prefs, email(null))).toBeNull();
    expect(
      optOutReason([row('sms', 'topic', 'marketing', false)], {
        channel: 'sms',
        topic: null,
        marketing: true,
        scopeIds: [],
      }),
    ).toBe('subscriber opted out of marketing on sms');
  });
});
