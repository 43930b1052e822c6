#!/usr/bin/env node
import 'reflect-metadata';
import { ConfigError } from './config/app-config.js';
import { VERSION } from './common/version.js';

const HELP = `notifyd ${VERSION}: notifications on PostgreSQL

Usage: notifyd [command]

Commands:
  serve              run the API and the worker (default); NOTIFYD_ROLE=api|worker splits them
  dev                serve with the development profile (npm run dev): 127.0.0.1 only, localhost
                     CORS origins, loopback webhook URLs allowed; never for production
  migrate            apply pending database migrations (--status to list, --down to revert the newest)
  import notifyd-0x --from postgres://… [--dry-run --json]
                     copy a notifyd 0.x database into this one (DATABASE_URL); docs/MIGRATING.md
  mcp                the MCP server on stdio (--read-only; --url to relay to a running instance)
  version            print the version
  help               this text

Client commands, against a running instance (NOTIFYD_URL, default http://localhost:3400, and
NOTIFYD_ADMIN_API_KEY, or --url and --key); tables for people, --json for scripts:
  digest [--window 24h] [--to slack:…|telegram:…] ranked findings with the action for each
  jobs [--status --project --channel --topic --recipient --since 24h] [--limit N | --all]
  job <id>                                      one job
  retry <id>… | retry --failed [filters]        re-queue failed or cancelled jobs
  cancel <id>…                                  cancel pending or retry jobs
  send-test --project P --channel C --to X [--subject S --body B]
  lanes [pause <lane> [--for 1h --reason R] | resume <lane>]
  keys [create <project> | rotate <project> | revoke <project>]
  subscribers import <file> [--format ndjson|csv --batch 1000 --from-line N --dry-run]
                     bulk-load an audience; takes the project key (NOTIFYD_PROJECT_KEY);
                     --from-line resumes a stopped run at the line it named

Exit codes: 0 ok; 1 error; 2 digest has a critical finding; 3 not found; 4 not in a state that
allows it (e.g. cancelling a sent job); 64 bad usage or no key; 65 input refused (an import:
some lines refused, or not a notifyd 0.x database); 69 notifyd (or the import's source)
unreachable; 77 key refused; 78 bad configuration (serve, migrate, import, mcp).

Configuration is read from the environment; see README.md. Without DATABASE_URL notifyd starts
an embedded PostgreSQL with its data in NOTIFYD_DATA_DIR (default ./.notifyd).
`;

/** main.ts's startNotifyd, loaded on demand and handed to the commands that start the server. */
const start = async () => (await import('./main.js')).startNotifyd;

/**
 * Each command resolves to the process exit code. Commands load their module on demand, so
 * `notifyd help` or a client command does not pay for loading the whole server.
 */
const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  serve: async () => {
    (await import('./cli/worker-v8-flags.js')).reexecWorkerWithV8Flags();
    return (await import('./cli/serve.command.js')).serve(await start());
  },
  dev: async () => (await import('./cli/dev.command.js')).dev(await start()),
  migrate: async (args) => (await import('./cli/migrate.command.js')).migrate(args),
  mcp: async (args) => (await import('./cli/mcp.command.js')).mcp(args, await start()),
  digest: async (args) => (await import('./cli/digest.command.js')).digest(args),
  jobs: async (args) => (await import('./cli/jobs.command.js')).jobs(args),
  job: async (args) => (await import('./cli/jobs.command.js')).job(args),
  retry: async (args) => (await import('./cli/jobs.command.js')).retry(args),
  cancel: async (args) => (await import('./cli/jobs.command.js')).cancel(args),
  'send-test': async (args) => (await import('./cli/jobs.command.js')).sendTest(args),
  lanes: async (args) => (await import('./cli/lanes.command.js')).lanes(args),
  keys: async (args) => (await import('./cli/keys.command.js')).keys(args),
  subscribers: async (args) => (await import('./cli/subscribers.command.js')).subscribers(args),
  import: async (args) => (await import('./cli/import.command.js')).importCommand(args),
  version: async () => {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  },
  help: async () => {
    process.stdout.write(HELP);
    return 0;
  },
};

async function main(argv: string[]): Promise<number> {
  const [name = 'serve', ...args] = argv;
  const command = COMMANDS[name === '--help' || name === '-h' ? 'help' : name === '--version' ? 'version' : name];
  if (!command) {
    process.stderr.write(`Unknown command '${name}'.\n\n${HELP}`);
    return 64;
  }
  try {
    return await command(args);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nFix the variables above and start again.\n`);
      return 78;
    }
    // Client commands throw errors that carry their exit code (see src/cli/http-client.ts).
    const exitCode = (err as { exitCode?: unknown })?.exitCode;
    if (typeof exitCode === 'number') {
      process.stderr.write(`notifyd ${name}: ${(err as Error).message}\n`);
      return exitCode;
    }
    process.stderr.write(`notifyd ${name} failed: ${(err as Error)?.message ?? String(err)}\n`);
    return 1;
  }
}

// Exit only once stdout and stderr are drained: a reader on a pipe gets every byte.
main(process.argv.slice(2))
  .then(async (code) => {
    await (await import('./cli/output.js')).flushStdio();
    return code;
  })
  .then((code) => process.exit(code));
