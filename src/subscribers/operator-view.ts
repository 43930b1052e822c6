import { maskEmail, maskPhone } from '../common/pii/mask.js';
import type { SubscriberDto } from './dto/subscriber.dto.js';
import type { SubscriberRow } from './subscriber.types.js';
import { presentSubscriber } from './subscribers.service.js';

/** How much of a subscriber an operator key may read: the admin key all, the read-only key less. */
export type OperatorAccess = 'full' | 'read-only';

/** Only the admin key reads everything; any other operator role (read-only key or session, or none known) reads less. */
export const operatorAccess = (role: string | null | undefined): OperatorAccess =>
  role === 'admin' ? 'full' : 'read-only';

/**
 * A subscriber as an operator sees it (admin routes, the console, MCP with an operator key).
 * Email and phone are masked for every operator, as the admin job search masks recipients.
 * `data` is free-form and can hold Slack or Discord webhook URLs, chat ids and other secrets:
 * the admin key reads it; the read-only key gets `{}` and, in `withheld_data_keys`, only the
 * names of what it holds, so a viewer still sees that a subscriber has, say, a `slack` target.
 */
export function presentSubscriberToOperator(s: SubscriberRow, access: OperatorAccess): SubscriberDto {
  const view = presentSubscriber(s);
  const masked = {
    ...view,
    email: view.email ? maskEmail(view.email) : view.email,
    phone: view.phone ? maskPhone(view.phone) : view.phone,
  };
  if (access === 'full') return masked;
  return { ...masked, data: {}, withheld_data_keys: Object.keys(view.data).sort() };
}
