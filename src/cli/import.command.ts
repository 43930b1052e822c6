import pg from 'pg';
import { loadConfig } from '../config/app-config.js';
import { assertPublicHttpUrl } from '../common/ssrf/public-url.js';
import { openDatabase, redactUrl } from '../database/database.js';
import { runMigrations } from '../database/migration-runner.js';
import { assertNotifyd0x, NotA0xDatabase } from '../import-0x/detect-0x.js';
import { import0x, type ImportSummary, KINDS } from '../import-0x/importer.js';
import { BEGIN_SNAPSHOT } from '../import-0x/sql/source.sql.js';
import type { SqlRunner } from '../import-0x/sql-runner.js';
import { createLogger } from '../logging/logger.js';
import { parseSecretKey } from '../config/sections/secrets.config.js';
import { open0xBlob, type TelegramImport } from '../import-0x/telegram-0x.js';
import { RouteSecrets } from '../telegram-routes/route-secrets.js';
import { encryptSecret, secretsKey } from '../webhooks/webhook-secrets.js';
import { parseArgs, UsageError } from './args.js';
import { EXIT } from './http-client.js';
import { print, printJson, table } from './output.js';
import { Progress } from './progress.js';

const USAGE = `usage: notifyd import notifyd-0x --from postgres://user:pass@host:5432/notifyd_0x [--dry-run] [--json]
  Copies a notifyd 0.x (Rust) database into this notifyd's (DATABASE_URL): projects with their
  key hashes (their keys keep working), subscribers, preferences, templates, push tokens,
  webhook endpoints, workflows, suppressions and per-user Telegram bots (these need 0.x's
  TELEGRAM_ENCRYPTION_KEY in the environment, and NOTIFYD_SECRET_KEY as the server has it). Run it again to carry later changes: rows
  already imported and unchanged are left alone. --dry-run does it all and rolls back, printing
  what it would have done. The source is only read. See docs/MIGRATING.md.`;

const SHOWN_MESSAGES = 20;

/** `notifyd import notifyd-0x --from <url>`: the whole import in one transaction of this database. */
export async function importCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseArgs(argv, { boolean: ['dry-run', 'json'], string: ['from'] });
  if (positionals.length !== 1 || positionals[0] !== 'notifyd-0x') throw new UsageError(USAGE);
  const from = typeof flags.from === 'string' ? flags.from : undefined;
  if (!from || !/^postgres(ql)?:\/\//.test(from))
    throw new UsageError(`--from must be the PostgreSQL URL of the notifyd 0.x database (postgres://…)\n${USAGE}`);
  const dryRun = flags['dry-run'] === true;

  const config = loadConfig(process.env, { requireSecrets: false });
  const logger = createLogger(config.server.logLevel === 'info' ? 'warn' : config.server.logLevel);
  const sealKey = secretsKey(config.webhooks.secretKey, config.auth.jwtSecret);

  const sourceClient = new pg.Client({ connectionString: from, application_name: 'notifyd import notifyd-0x' });
  try {
    await sourceClient.connect();
  } catch (err) {
    process.stderr.write(`cannot connect to the source ${redactUrl(from)}: ${(err as Error).message}\n`);
    return EXIT.unavailable;
  }
  const src: SqlRunner = { query: async (text, params) => (await sourceClient.query(text, params)).rows };
  const database = await openDatabase(config.database, logger);
  try {
    await assertNotifyd0x(src);
    await runMigrations(database.dataSource);
    await src.query(BEGIN_SNAPSHOT);
    const total = await rowsToRead(src);
    const runner = database.dataSource.createQueryRunner();
    await runner.connect();
    const progress = new Progress(dryRun ? 'dry run' : 'importing', total);
    const read = new Map<string, number>();
    let summary: ImportSummary;
    try {
      await runner.startTransaction();
      summary = await import0x(
        src,
        { query: (text, params) => runner.query(text, params) },
        {
          sealWebhookSecret: (id, secret) => {
            if (!sealKey)
              throw new Error(
                'webhook endpoints need a key to seal their secrets: set JWT_SECRET (or WEBHOOK_SECRET_KEY) as the server has it',
              );
            return encryptSecret(sealKey, id, secret);
          },
          webhookUrlRefusal: (url) => {
            try {
              assertPublicHttpUrl(url, {
                httpsOnly: config.outbound.httpsOnly,
                allowLoopback: config.outbound.allowLoopback,
              });
              return undefined;
            } catch (err) {
              return (err as Error).message;
            }
          },
          telegram: telegramImport(config, process.env.TELEGRAM_ENCRYPTION_KEY),
          onProgress: (kind, rows) => {
            read.set(kind, rows);
            progress.update(
              [...read.values()].reduce((a, b) => a + b, 0),
              kind,
            );
          },
        },
      );
      if (dryRun) await runner.rollbackTransaction();
      else await runner.commitTransaction();
    } catch (err) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw err;
    } finally {
      progress.finish();
      await runner.release();
    }
    if (flags.json) printJson({ dry_run: dryRun, ...summary });
    else print(report(summary, dryRun));
    return EXIT.ok;
  } catch (err) {
    if (err instanceof NotA0xDatabase) {
      process.stderr.write(`refused: ${err.message}\n`);
      return EXIT.invalid;
    }
    throw err;
  } finally {
    await sourceClient.end().catch(() => undefined);
    await database.close();
  }
}

/** 0.x's tokens opened with its TELEGRAM_ENCRYPTION_KEY, sealed again with NOTIFYD_SECRET_KEY; or why not. */
function telegramImport(config: ReturnType<typeof loadConfig>, key0x: string | undefined): TelegramImport {
  const secrets = new RouteSecrets(config);
  if (!secrets.enabled)
    return { unavailable: 'set NOTIFYD_SECRET_KEY (as the server has it) to import per-user Telegram bots' };
  const key = key0x ? parseSecretKey(key0x) : undefined;
  if (!key)
    return {
      unavailable:
        "set TELEGRAM_ENCRYPTION_KEY to the 0.x instance's (base64 of 32 bytes) to import per-user Telegram bots",
    };
  return {
    open0x: (blob) => open0xBlob(key, blob),
    seal: (projectId, owner, field, value) => secrets.seal(projectId, owner, field, value),
    keyId: secrets.keyId,
  };
}

/** Rows the import will read, for the progress bar (one count per table, in the snapshot). */
async function rowsToRead(src: SqlRunner): Promise<number> {
  const [row] = await src.query<{ n: string }>(`
    SELECT ((SELECT count(*) FROM projects) + (SELECT count(*) FROM subscribers) + (SELECT count(*) FROM subscriber_preferences)
          + (SELECT count(*) FROM templates) + (SELECT count(*) FROM push_tokens) + (SELECT count(*) FROM webhooks)
          + (SELECT count(*) FROM workflows) + (SELECT count(*) FROM email_suppressions))::text AS n`);
  return Number(row.n);
}

function report(s: ImportSummary, dryRun: boolean): string {
  const head = dryRun
    ? 'Dry run: nothing was written. This is what the import would do:'
    : 'Imported from notifyd 0.x:';
  const rows = KINDS.map((k) => [
    k,
    s.counts[k].read,
    s.counts[k].created,
    s.counts[k].updated,
    s.counts[k].unchanged,
    s.counts[k].skipped,
  ]);
  const lines = [
    head,
    table(['what', 'read', 'created', 'updated', 'unchanged', 'skipped'], rows).trimEnd(),
    `topics in use: ${s.topics}`,
  ];
  const list = (title: string, items: string[], count: number) => {
    if (!items.length) return;
    lines.push(`${title}:`, ...items.slice(0, SHOWN_MESSAGES).map((m) => `  - ${m}`));
    if (count > SHOWN_MESSAGES) lines.push(`  … ${count - SHOWN_MESSAGES} more (--json lists up to 200)`);
  };
  list('skipped', s.skipped, s.skipped.length);
  list('adjusted', s.notes, s.notes.length);
  return `${lines.join('\n')}\n`;
}
