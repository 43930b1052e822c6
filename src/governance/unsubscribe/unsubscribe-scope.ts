import type { UnsubscribeClaim } from '../../common/unsubscribe/unsubscribe-token.js';

/** What a POST asks for: this topic only, or all marketing on the channel. */
export type UnsubscribeScope = 'topic' | 'marketing';

/** What was recorded; `marketing-instead`: a topic was asked for, but the address has no subscriber. */
export type UnsubscribeOutcome =
  { done: 'topic'; topic: string } | { done: 'marketing' } | { done: 'marketing-instead'; topic: string };

/**
 * The scope a POST asks for. Without `?scope=` (the RFC 8058 one-click POST a mail client
 * sends), a link signed for a topic means that topic, as the message it came in was about it;
 * the page's buttons name their scope. An error (the field and the fix) for anything else.
 */
export function requestedScope(
  query: string | undefined,
  claim: Pick<UnsubscribeClaim, 'topic'>,
): { scope: UnsubscribeScope } | { error: string } {
  if (query === undefined || query === '') return { scope: claim.topic ? 'topic' : 'marketing' };
  if (query === 'marketing') return { scope: 'marketing' };
  if (query === 'topic')
    return claim.topic
      ? { scope: 'topic' }
      : { error: 'scope=topic needs a link signed for a topic, and this one has none: use scope=marketing.' };
  return { error: `scope must be ${claim.topic ? '"topic" or ' : ''}"marketing".` };
}
