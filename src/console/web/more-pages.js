import { html } from 'htm/preact';
import { SubscriberPage } from './pages/subscriber-page.js';
import { SubscribersPage } from './pages/subscribers-page.js';
import { TemplatePage } from './pages/template-page.js';
import { TemplatesPage } from './pages/templates-page.js';
import { WebhookDeliveriesPage, WebhooksPage } from './pages/webhooks-page.js';
import { WorkflowRunPage, WorkflowsPage } from './pages/workflows-page.js';
import { hashParts } from './project-picker.js';

/** The per-project and webhook pages, routed here so app.js names them in one place. */
export const MORE_NAV = [
  ['#/subscribers', 'Subscribers'],
  ['#/templates', 'Templates'],
  ['#/webhooks', 'Webhooks'],
  ['#/workflows', 'Workflows'],
];

/**
 * The page a hash names among these, or null: #/subscribers[/<project>[/<id>]],
 * #/templates[/<project>[/<id>]], #/webhooks[/<endpoint id>], #/workflows[/<project>[/<run id>]].
 */
export function morePage(hash, role) {
  const [page, first, second] = hashParts(hash);
  const project = first || undefined;
  const view = {
    subscribers: () =>
      second
        ? html`<${SubscriberPage} project=${project} id=${second} />`
        : html`<${SubscribersPage} key=${project} project=${project} />`,
    templates: () =>
      second
        ? html`<${TemplatePage} project=${project} id=${second} role=${role} />`
        : html`<${TemplatesPage} project=${project} />`,
    webhooks: () => (first ? html`<${WebhookDeliveriesPage} id=${first} role=${role} />` : html`<${WebhooksPage} />`),
    workflows: () =>
      second
        ? html`<${WorkflowRunPage} project=${project} id=${second} />`
        : html`<${WorkflowsPage} project=${project} />`,
  }[page];
  return view ? { page, view: view() } : null;
}
