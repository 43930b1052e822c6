import { convertLegacy0xSteps } from '../workflows/legacy-0x-steps.js';
import { parseSteps } from '../workflows/workflow-steps.js';
import {
  type Converted,
  convertPreference,
  convertProject,
  convertPushToken,
  convertSubscriber,
  convertSuppression,
  convertTemplate,
  convertWebhook,
  type PreferenceRow0x,
  type ProjectRow0x,
  type PushTokenRow0x,
  type SubscriberRow0x,
  type SuppressionRow0x,
  type TemplateRow0x,
  type WebhookRow0x,
} from './convert.js';
import * as source from './sql/source.sql.js';
import * as target from './sql/target.sql.js';
import type { SqlRunner } from './sql-runner.js';
import {
  convertTelegramCredential,
  convertTelegramDestination,
  type TelegramCredentialRow0x,
  type TelegramDestinationRow0x,
  type TelegramImport,
} from './telegram-0x.js';

export const KINDS = [
  'projects',
  'subscribers',
  'preferences',
  'templates',
  'push_tokens',
  'webhooks',
  'workflows',
  'suppressions',
  'telegram_routes',
  'telegram_chats',
] as const;
export type Kind = (typeof KINDS)[number];

export interface KindCounts {
  read: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
}

export interface ImportSummary {
  counts: Record<Kind, KindCounts>;
  /** Distinct topics the imported projects used (0.x kept them on templates and jobs, as notifyd does). */
  topics: number;
  /** Why rows were left out (first ones; every skip is counted). */
  skipped: string[];
  /** Values adjusted on the way (a phone that is not E.164 dropped…). */
  notes: string[];
}

export interface ImportOptions {
  /** Rows per read and per write. */
  pageSize?: number;
  /** Seals a webhook secret for this instance (webhook-secrets.ts). */
  sealWebhookSecret: (endpointId: string, secret: string) => Buffer;
  /** Why a webhook URL would be refused by this instance, if it would. */
  webhookUrlRefusal: (url: string) => string | undefined;
  /** Opens 0.x's per-user Telegram tokens and seals them for this notifyd, or why it cannot. */
  telegram: TelegramImport;
  /** Called after each page: rows of the source read so far. */
  onProgress?: (kind: Kind, rowsRead: number) => void;
}

const KEPT_MESSAGES = 200;

/**
 * Copies a notifyd 0.x database into this one: projects (with their key hashes), subscribers,
 * preferences, templates, push tokens, webhook endpoints, workflows, suppressions and (0.4's
 * migration 024, when the source has it) per-user Telegram bots with their chats. The caller
 * holds `source` in a read-only snapshot and `dest` in a transaction (committed, or rolled back
 * for --dry-run: the counts are then exactly what a real run would do). Idempotent: each write
 * inserts new rows, updates changed ones and leaves equal ones alone.
 */
export async function import0x(src: SqlRunner, dest: SqlRunner, options: ImportOptions): Promise<ImportSummary> {
  const pageSize = options.pageSize ?? 1_000;
  const summary: ImportSummary = {
    counts: Object.fromEntries(
      KINDS.map((k) => [k, { read: 0, created: 0, updated: 0, unchanged: 0, skipped: 0 }]),
    ) as Record<Kind, KindCounts>,
    topics: 0,
    skipped: [],
    notes: [],
  };
  const keep = (list: string[], message: string) => {
    if (list.length < KEPT_MESSAGES) list.push(message);
  };

  /** Converts a page, writes what converted, counts everything. */
  const write = async <T>(
    kind: Kind,
    rows: T[],
    convert: (row: T) => Converted<Record<string, unknown>>,
    statement: string,
    imported: (row: T) => boolean = () => true,
  ) => {
    const counts = summary.counts[kind];
    counts.read += rows.length;
    const out: Record<string, unknown>[] = [];
    for (const row of rows) {
      if (!imported(row)) {
        counts.skipped++;
        continue;
      }
      const c = convert(row);
      if ('skip' in c) {
        counts.skipped++;
        keep(summary.skipped, c.skip);
        continue;
      }
      c.notes.forEach((n) => keep(summary.notes, n));
      out.push(c.row);
    }
    if (out.length) {
      const written = await dest.query<{ inserted: boolean }>(statement, [JSON.stringify(out)]);
      const created = written.filter((w) => w.inserted).length;
      counts.created += created;
      counts.updated += written.length - created;
      counts.unchanged += out.length - written.length;
    }
    options.onProgress?.(kind, counts.read);
  };

  // Projects first: everything else belongs to one, and is left out with a project left out.
  const projects = await src.query<ProjectRow0x>(source.SOURCE_PROJECTS);
  const existing = new Map(
    (
      await dest.query<{ id: string; apiKeyHash: string | null }>(target.EXISTING_PROJECTS, [projects.map((p) => p.id)])
    ).map((p) => [p.id, p.apiKeyHash]),
  );
  const clash = (p: ProjectRow0x) => existing.has(p.id) && existing.get(p.id) !== p.api_key_hash;
  for (const p of projects.filter(clash))
    keep(
      summary.skipped,
      `project '${p.id}' already exists here with another key: rename or delete it here, then import again (its rows are left out)`,
    );
  const projectsKept = projects.filter((p) => !clash(p));
  await write('projects', projectsKept, convertProject, target.UPSERT_PROJECTS);
  summary.counts.projects.read += projects.length - projectsKept.length;
  summary.counts.projects.skipped += projects.length - projectsKept.length;
  const importedIds = new Set(projectsKept.filter((p) => !('skip' in convertProject(p))).map((p) => p.id));
  const ofImported = (row: { project_id: string }) => importedIds.has(row.project_id);

  let after: unknown[] = ['', ''];
  for (;;) {
    const page = await src.query<SubscriberRow0x>(source.SOURCE_SUBSCRIBERS, [...after, pageSize]);
    if (!page.length) break;
    await write('subscribers', page, convertSubscriber, target.UPSERT_SUBSCRIBERS, ofImported);
    const last = page[page.length - 1];
    after = [last.project_id, last.id];
  }

  const topicRows = await src.query<{ project_id: string; topic: string }>(source.SOURCE_TOPICS);
  const topics = new Set(topicRows.filter(ofImported).map((t) => `${t.project_id}\u0000${t.topic}`));
  summary.topics = topics.size;

  after = ['', '', '', ''];
  for (;;) {
    const page = await src.query<PreferenceRow0x>(source.SOURCE_PREFERENCES, [...after, pageSize]);
    if (!page.length) break;
    await write('preferences', page, (p) => convertPreference(p, topics), target.UPSERT_PREFERENCES, ofImported);
    const last = page[page.length - 1];
    after = [last.project_id, last.subscriber_id, last.channel, last.workflow_id];
  }

  const templates = await src.query<TemplateRow0x>(source.SOURCE_TEMPLATES);
  await write('templates', templates, convertTemplate, target.UPSERT_TEMPLATES, ofImported);

  /**
   * A table read in keyset pages over its id (as text). The first page is written even when
   * empty, so an empty table reports its progress (0 rows) like a table read whole.
   */
  const byIdPages = async <T extends { id: string }>(statement: string, each: (page: T[]) => Promise<void>) => {
    for (let afterKey = ''; ;) {
      const page = await src.query<T>(statement, [afterKey, pageSize]);
      if (!page.length && afterKey !== '') break;
      await each(page);
      if (page.length < pageSize) break;
      afterKey = page[page.length - 1].id;
    }
  };
  await byIdPages<PushTokenRow0x>(source.SOURCE_PUSH_TOKENS, (page) =>
    write('push_tokens', page, convertPushToken, target.UPSERT_PUSH_TOKENS, ofImported),
  );

  const webhooks = await src.query<WebhookRow0x>(source.SOURCE_WEBHOOKS);
  await write(
    'webhooks',
    webhooks,
    (w) => convertWebhook(w, options.sealWebhookSecret, options.webhookUrlRefusal),
    target.UPSERT_WEBHOOKS,
    ofImported,
  );

  // 0.x steps name templates by id: `template_id` here (legacy-0x-steps.ts). As a definition saved
  // through the API, a step naming a template with no variant for its channel needs inline content.
  const variants = new Set(templates.map((t) => `${t.project_id}\u0000${t.id}\u0000${t.channel}`));
  const missingTemplates = (projectId: string, steps: unknown[]) =>
    steps.flatMap((step, i) => {
      const s = step as { template_id?: unknown; channel?: unknown; subject?: unknown; body?: unknown };
      if (
        typeof s.template_id !== 'string' ||
        variants.has(`${projectId}\u0000${s.template_id}\u0000${String(s.channel)}`) ||
        s.body ||
        s.subject
      )
        return [];
      return [
        `steps[${i}].template_id: template '${s.template_id}' has no ${String(s.channel)} variant and the step has no subject or body to fall back on`,
      ];
    });
  const workflows = await src.query<{
    project_id: string;
    id: string;
    name: string;
    description: string | null;
    trigger_event: string;
    steps: unknown;
    enabled: boolean;
  }>(source.SOURCE_WORKFLOWS);
  await write(
    'workflows',
    workflows,
    (w) => {
      const what = `workflow '${w.id}' of '${w.project_id}'`;
      if (!/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/.test(w.id)) return { skip: `${what}: not a notifyd workflow id` };
      if (!Array.isArray(w.steps)) return { skip: `${what}: steps are not a list` };
      const steps = convertLegacy0xSteps(w.steps);
      const missing = missingTemplates(w.project_id, steps);
      if (missing.length > 0) return { skip: `${what}: ${missing.join('; ')}` };
      const parsed = parseSteps(steps);
      if ('problems' in parsed) return { skip: `${what}: ${parsed.problems.join('; ')}` };
      return {
        notes: [],
        row: {
          project_id: w.project_id,
          id: w.id,
          name: w.name,
          description: w.description,
          trigger_event: w.trigger_event,
          steps: parsed.steps,
          enabled: w.enabled,
        },
      };
    },
    target.UPSERT_WORKFLOWS,
    ofImported,
  );

  await byIdPages<SuppressionRow0x>(source.SOURCE_SUPPRESSIONS, (page) =>
    write('suppressions', page, convertSuppression, target.UPSERT_SUPPRESSIONS, ofImported),
  );

  const [{ present }] = await src.query<{ present: boolean }>(source.SOURCE_HAS_TELEGRAM);
  if (present) {
    // The ids of the routes imported, for their chats (ids only: the rows are not kept).
    const routes = new Set<string>();
    await byIdPages<TelegramCredentialRow0x>(source.SOURCE_TELEGRAM_CREDENTIALS, (page) =>
      write(
        'telegram_routes',
        page,
        (c) => {
          const converted = convertTelegramCredential(c, options.telegram);
          if ('row' in converted) routes.add(c.id);
          return converted;
        },
        target.UPSERT_TELEGRAM_CREDENTIALS,
        ofImported,
      ),
    );
    await byIdPages<TelegramDestinationRow0x>(source.SOURCE_TELEGRAM_DESTINATIONS, (page) =>
      write(
        'telegram_chats',
        page,
        (d) => convertTelegramDestination(d, routes),
        target.UPSERT_TELEGRAM_DESTINATIONS,
        ofImported,
      ),
    );
  }
  return summary;
}
