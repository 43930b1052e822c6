import type { SubscriberProfile } from '../subscribers/subscriber.types.js';
import type { TemplateSource } from './render/render-protocol.js';

/** The profile fields a template also reads at the top level (`{{ first_name }}`), unless a var of the same name is sent. */
export const TOP_LEVEL_PROFILE_FIELDS = ['first_name', 'last_name', 'email', 'phone', 'locale', 'timezone'] as const;

/** What a template sees of its recipient, under `subscriber`. */
export interface SubscriberContext {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  locale: string | null;
  timezone: string | null;
  data: Record<string, unknown>;
}

export function subscriberContext(profile: SubscriberProfile): SubscriberContext {
  return {
    id: profile.id,
    first_name: profile.firstName,
    last_name: profile.lastName,
    email: profile.email,
    phone: profile.phone,
    locale: profile.locale,
    timezone: profile.timezone,
    data: profile.data ?? {},
  };
}

/**
 * Links signed for the recipient that a template may show (`{{ preferences_url }}`), given by
 * the worker (templates do not sign links: governance does).
 */
export type RecipientLinks = { preferences_url?: string };

/** Names of RecipientLinks: like profile fields, they make a source's render per recipient. */
const LINK_NAMES = ['preferences_url'] as const;

/**
 * The variables a render sees: the recipient's links and profile as `subscriber` (and its fields
 * at the top level), then the send's `vars` over them. Vars win: a send that passes `first_name`
 * (or even `subscriber`, or its own `preferences_url`) is rendered with what it passed, so
 * existing senders keep their output.
 */
export function templateContext(
  vars: Record<string, unknown>,
  profile: SubscriberProfile | undefined,
  links: RecipientLinks = {},
): Record<string, unknown> {
  const context: Record<string, unknown> = { ...links };
  if (profile) {
    const subscriber = subscriberContext(profile);
    context.subscriber = subscriber;
    for (const field of TOP_LEVEL_PROFILE_FIELDS) context[field] = subscriber[field];
  }
  return Object.assign(context, vars);
}

/** Names that read the profile or a recipient's link; a source without any renders the same for every recipient. */
const PROFILE_NAMES = new RegExp(`\\b(subscriber|${[...TOP_LEVEL_PROFILE_FIELDS, ...LINK_NAMES].join('|')})\\b`);

/** The Liquid parts of a text (`{{ … }}` outputs and `{% … %}` tags): only they can read a name. */
const LIQUID_PARTS = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g;

const partsReadProfile = (text: string | null): boolean =>
  text !== null && (text.match(LIQUID_PARTS) ?? []).some((part) => PROFILE_NAMES.test(part));

/**
 * Whether a source may read the recipient's profile. A batch send shares one set of vars, so a
 * source that reads no profile field is rendered once for the whole batch; one that does is
 * rendered per recipient. Only the Liquid parts are looked at: "this email was sent to you" in
 * plain text reads nothing, and must not cost the batch its one shared render.
 */
export function readsProfile(source: TemplateSource): boolean {
  return partsReadProfile(source.body) || partsReadProfile(source.subject) || partsReadProfile(source.bodyHtml);
}

/** Liquid output or tag markup: text without it renders to itself and skips the render thread. */
const LIQUID_MARKUP = /\{\{|\{%/;

export function hasLiquid(text: string | null | undefined): boolean {
  return typeof text === 'string' && LIQUID_MARKUP.test(text);
}
