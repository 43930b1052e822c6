import { createHash } from 'node:crypto';
import { MARKETING_TOPIC } from '../../domain/marketing.js';
import type { PreferenceGrid } from './preference-grid.js';
import { escapeHtml } from '../../common/html/escape-html.js';

/**
 * The words of the preference page, in the unsubscribe pages' languages (pageLanguage() of
 * unsubscribe-pages.ts picks one of these four; a spec keeps the two lists equal).
 */
interface Copy {
  title: string;
  intro: string;
  topic: string;
  channels: Record<string, string>;
  marketing: string;
  alwaysSent: string;
  save: string;
  saved: string;
  stale: string;
  invalid: string;
}

export const PREFERENCE_COPY: Record<string, Copy> = {
  en: {
    title: 'Notification preferences',
    intro:
      'Choose what we send you, and where. Messages marked “always sent” are about your account and cannot be switched off.',
    topic: 'Topic',
    channels: { email: 'Email', sms: 'SMS', whatsapp: 'WhatsApp', push: 'Push', in_app: 'In-app' },
    marketing: 'News and offers',
    alwaysSent: 'always sent',
    save: 'Save preferences',
    saved: 'Your preferences are saved.',
    stale: 'This page has changed since you opened it. Your choices were not saved: please make them again.',
    invalid: 'This preferences link is not valid or has expired.',
  },
  fr: {
    title: 'Préférences de notification',
    intro:
      'Choisissez ce que nous vous envoyons, et par quel moyen. Les messages « toujours envoyés » concernent votre compte et ne peuvent pas être désactivés.',
    topic: 'Sujet',
    channels: {
      email: 'E-mail',
      sms: 'SMS',
      whatsapp: 'WhatsApp',
      push: 'Notifications',
      in_app: 'Dans l’application',
    },
    marketing: 'Actualités et offres',
    alwaysSent: 'toujours envoyés',
    save: 'Enregistrer mes préférences',
    saved: 'Vos préférences sont enregistrées.',
    stale: 'Cette page a changé depuis son ouverture. Vos choix n’ont pas été enregistrés : veuillez les refaire.',
    invalid: 'Ce lien de préférences n’est pas valide ou a expiré.',
  },
  es: {
    title: 'Preferencias de notificación',
    intro:
      'Elige qué te enviamos y por dónde. Los mensajes «siempre enviados» tratan de tu cuenta y no se pueden desactivar.',
    topic: 'Tema',
    channels: { email: 'Correo', sms: 'SMS', whatsapp: 'WhatsApp', push: 'Notificaciones', in_app: 'En la aplicación' },
    marketing: 'Novedades y ofertas',
    alwaysSent: 'siempre enviados',
    save: 'Guardar preferencias',
    saved: 'Tus preferencias se han guardado.',
    stale: 'Esta página cambió desde que la abriste. Tus opciones no se guardaron: vuelve a elegirlas.',
    invalid: 'Este enlace de preferencias no es válido o ha caducado.',
  },
  de: {
    title: 'Benachrichtigungseinstellungen',
    intro:
      'Wählen Sie, was wir Ihnen senden und auf welchem Weg. „Immer gesendete“ Nachrichten betreffen Ihr Konto und lassen sich nicht abschalten.',
    topic: 'Thema',
    channels: { email: 'E-Mail', sms: 'SMS', whatsapp: 'WhatsApp', push: 'Push', in_app: 'In der App' },
    marketing: 'Neuigkeiten und Angebote',
    alwaysSent: 'immer gesendet',
    save: 'Einstellungen speichern',
    saved: 'Ihre Einstellungen sind gespeichert.',
    stale:
      'Diese Seite hat sich seit dem Öffnen geändert. Ihre Auswahl wurde nicht gespeichert: bitte wählen Sie erneut.',
    invalid: 'Dieser Einstellungslink ist ungültig oder abgelaufen.',
  },
};

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#111;background:#fff}' +
  'table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{padding:.5rem;border-bottom:1px solid #ccc;text-align:center}' +
  'th[scope=row],thead th:first-child{text-align:left}input{width:1.25rem;height:1.25rem}small{display:block;color:#444}' +
  'button{padding:.75rem 1.25rem;font-size:1rem;cursor:pointer}[role=status]{background:#e6f4ea;padding:.75rem;border-radius:4px}' +
  '[role=alert]{background:#fdecea;padding:.75rem;border-radius:4px}';

/**
 * Strict: nothing but this page's one inline stylesheet (by its hash); no script, image, font,
 * frame or fetch; forms post back to this origin only.
 */
export const PREFERENCE_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function page(lang: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="robots" content="noindex,nofollow">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

/** The name of a checkbox of one cell: `on` = `<channel> <topic>` (neither holds a space). */
export const cellValue = (channel: string, topic: string) => `${channel} ${topic}`;

/**
 * The page: a table of topics × channels, one checkbox per cell (checked = sent), transactional
 * topics checked and disabled; one form that POSTs every switch back with the grid's version.
 * `notice`: after a POST, saved or stale.
 */
export function preferencesPage(
  lang: string,
  grid: PreferenceGrid,
  version: string,
  action: string,
  notice?: 'saved' | 'stale',
): string {
  const c = PREFERENCE_COPY[lang];
  const channelName = (ch: string) => c.channels[ch] ?? ch;
  const head = `<thead><tr><th scope="col">${escapeHtml(c.topic)}</th>${grid.channels.map((ch) => `<th scope="col">${escapeHtml(channelName(ch))}</th>`).join('')}</tr></thead>`;
  const rows = grid.topics.map((t) => {
    const label = t.label ?? (t.id === MARKETING_TOPIC ? c.marketing : t.id);
    const cells = grid.channels.map((ch) => {
      const cell = grid.cells.find((x) => x.channel === ch && x.topic === t.id)!;
      const name = `${label} — ${channelName(ch)}`;
      return `<td><input type="checkbox" name="on" value="${escapeHtml(cellValue(ch, t.id))}" aria-label="${escapeHtml(name)}"${cell.enabled ? ' checked' : ''}${cell.switchable ? '' : ' disabled'}></td>`;
    });
    const note = t.transactional ? `<small>${escapeHtml(c.alwaysSent)}</small>` : '';
    return `<tr><th scope="row">${escapeHtml(label)}${note}</th>${cells.join('')}</tr>`;
  });
  const status =
    notice === 'saved'
      ? `<p role="status">${escapeHtml(c.saved)}</p>`
      : notice === 'stale'
        ? `<p role="alert">${escapeHtml(c.stale)}</p>`
        : '';
  return page(
    lang,
    c.title,
    `${status}<p>${escapeHtml(c.intro)}</p><form method="post" action="${escapeHtml(action)}"><input type="hidden" name="v" value="${escapeHtml(version)}">` +
      `<table>${head}<tbody>${rows.join('')}</tbody></table><button type="submit">${escapeHtml(c.save)}</button></form>`,
  );
}

export function invalidPreferencesPage(lang: string): string {
  const c = PREFERENCE_COPY[lang];
  return page(lang, c.title, `<p>${escapeHtml(c.invalid)}</p>`);
}
