import type { UnsubscribeOutcome } from './unsubscribe-scope.js';

/** The words of the unsubscribe pages; English, and a translation where one exists. */
interface Copy {
  title: string;
  question: (address: string) => string;
  topicButton: (topic: string) => string;
  allButton: string;
  doneAll: (address: string) => string;
  doneTopic: (topic: string) => string;
  /** A topic was asked for, but no subscriber has the address: all marketing stopped instead. */
  doneInstead: (topic: string, address: string) => string;
  /** A POST whose `scope` the link does not offer (the English detail follows it). */
  badScope: string;
  invalid: string;
}

const COPY: Record<string, Copy> = {
  en: {
    title: 'Unsubscribe',
    question: (a) => `Stop receiving these emails at ${a}?`,
    topicButton: (t) => `Unsubscribe from “${t}” only`,
    allButton: 'Unsubscribe from all marketing emails',
    doneAll: (a) => `${a} will no longer receive marketing emails.`,
    doneTopic: (t) => `You will no longer receive “${t}” emails.`,
    doneInstead: (t, a) =>
      `${a} has no subscription settings here, so “${t}” alone could not be stopped: ${a} will no longer receive any marketing emails.`,
    badScope:
      'This request asked for a choice the link does not offer. Open the link again and press one of its buttons.',
    invalid: 'This unsubscribe link is not valid or has expired.',
  },
  fr: {
    title: 'Désinscription',
    question: (a) => `Ne plus recevoir ces e-mails à l’adresse ${a} ?`,
    topicButton: (t) => `Me désinscrire de « ${t} » seulement`,
    allButton: 'Me désinscrire de tous les e-mails commerciaux',
    doneAll: (a) => `${a} ne recevra plus d’e-mails commerciaux.`,
    doneTopic: (t) => `Vous ne recevrez plus les e-mails « ${t} ».`,
    doneInstead: (t, a) =>
      `Nous n’avons pas de préférences pour ${a} et ne pouvons donc pas arrêter « ${t} » seulement : ${a} ne recevra plus aucun e-mail commercial.`,
    badScope:
      'Cette demande porte sur un choix que le lien ne propose pas. Ouvrez de nouveau le lien et utilisez l’un de ses boutons.',
    invalid: 'Ce lien de désinscription n’est pas valide ou a expiré.',
  },
  es: {
    title: 'Darse de baja',
    question: (a) => `¿Dejar de recibir estos correos en ${a}?`,
    topicButton: (t) => `Darme de baja solo de «${t}»`,
    allButton: 'Darme de baja de todos los correos comerciales',
    doneAll: (a) => `${a} ya no recibirá correos comerciales.`,
    doneTopic: (t) => `Ya no recibirás correos de «${t}».`,
    doneInstead: (t, a) =>
      `No guardamos preferencias para ${a}, así que no podemos dar de baja solo «${t}»: ${a} ya no recibirá ningún correo comercial.`,
    badScope:
      'Esta solicitud pide una opción que el enlace no ofrece. Abre de nuevo el enlace y pulsa uno de sus botones.',
    invalid: 'Este enlace para darse de baja no es válido o ha caducado.',
  },
  de: {
    title: 'Abmelden',
    question: (a) => `Keine dieser E-Mails mehr an ${a} erhalten?`,
    topicButton: (t) => `Nur von „${t}“ abmelden`,
    allButton: 'Von allen Werbe-E-Mails abmelden',
    doneAll: (a) => `${a} erhält keine Werbe-E-Mails mehr.`,
    doneTopic: (t) => `Sie erhalten keine „${t}“-E-Mails mehr.`,
    doneInstead: (t, a) =>
      `Für ${a} sind keine Einstellungen gespeichert, daher lässt sich nicht nur „${t}“ abbestellen: ${a} erhält keine Werbe-E-Mails mehr.`,
    badScope:
      'Diese Anfrage verlangt eine Auswahl, die der Link nicht anbietet. Öffnen Sie den Link erneut und wählen Sie eine der Schaltflächen.',
    invalid: 'Dieser Abmeldelink ist ungültig oder abgelaufen.',
  },
};

/** The language of a page: the first supported of the given locales (es-MX → es), else English. */
export function pageLanguage(...locales: (string | null | undefined)[]): string {
  for (const locale of locales) {
    const lang = locale?.trim().toLowerCase().split(/[-_]/)[0];
    if (lang && lang in COPY) return lang;
  }
  return 'en';
}

/** The first language tags of an Accept-Language header, best first. */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part) => {
      const [tag, q] = part.trim().split(';q=');
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q) || 0 };
    })
    .filter((l) => l.tag && l.q > 0)
    .sort((a, b) => b.q - a.q)
    .slice(0, 5)
    .map((l) => l.tag);
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(lang: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="robots" content="noindex,nofollow">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}button{display:block;width:100%;margin:.75rem 0;padding:.75rem;font-size:1rem;cursor:pointer}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

/**
 * The confirmation page a GET shows: buttons that POST; nothing changes until one is pressed.
 * A link signed for a topic offers that topic first, then all marketing; each button names its
 * scope, since a POST without one (the RFC 8058 one-click POST) follows the link's topic.
 */
export function confirmPage(lang: string, address: string, topic: string | null, action: string): string {
  const c = COPY[lang];
  const a = escapeHtml(action);
  const topicForm = topic
    ? `<form method="post" action="${a}?scope=topic"><button type="submit">${escapeHtml(c.topicButton(topic))}</button></form>`
    : '';
  return page(
    lang,
    c.title,
    `<p>${escapeHtml(c.question(address))}</p>${topicForm}<form method="post" action="${a}?scope=marketing"><button type="submit">${escapeHtml(c.allButton)}</button></form>`,
  );
}

/** What a POST recorded: the topic left, all marketing stopped, or all marketing instead of a topic. */
export function donePage(lang: string, address: string, outcome: UnsubscribeOutcome): string {
  const c = COPY[lang];
  const text =
    outcome.done === 'topic'
      ? c.doneTopic(outcome.topic)
      : outcome.done === 'marketing-instead'
        ? c.doneInstead(outcome.topic, address)
        : c.doneAll(address);
  return page(lang, c.title, `<p>${escapeHtml(text)}</p>`);
}

/** A POST asking for a scope the link does not offer: the translated line, then the field and the fix. */
export function badScopePage(lang: string, detail: string): string {
  const c = COPY[lang];
  return page(lang, c.title, `<p>${escapeHtml(c.badScope)}</p><p><code>${escapeHtml(detail)}</code></p>`);
}

export function invalidPage(lang: string): string {
  const c = COPY[lang];
  return page(lang, c.title, `<p>${escapeHtml(c.invalid)}</p>`);
}
