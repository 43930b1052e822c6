/**
 * notifyd's one notion of marketing (docs/API.md, "Marketing and opting out"). A message is
 * marketing when any of these holds:
 *   - its priority is bulk (80) or above;
 *   - it is tagged `category` = campaign, marketing, newsletter or bulk;
 *   - its topic (the request's, else its template's) is `marketing` or `marketing:<anything>`.
 * Every rule that treats marketing apart reads that one flag (the job's `payload.marketing`):
 * marketing-scope suppressions, the `marketing` preference, RFC 8058 unsubscribe headers and
 * links, send windows. Transactional messages (`transactional: true`) are never stopped by a
 * marketing opt-out; a suppression of scope `all` stops everything.
 */

/** The preference topic a subscriber opts out of to stop every marketing message (`{"topic":"marketing","enabled":false}`). */
export const MARKETING_TOPIC = 'marketing';

/** Topics that class a message as marketing: `marketing` itself and `marketing:<sub-topic>`. */
export function isMarketingTopic(topic: string | null | undefined): boolean {
  return topic === MARKETING_TOPIC || (typeof topic === 'string' && topic.startsWith(`${MARKETING_TOPIC}:`));
}
