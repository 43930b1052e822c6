#!/usr/bin/env node
import 'reflect-metadata';
import { ConfigError } from './config/app-config.js';
import { VERSION } from './common/version.js';

const HELP = `notifyd ${VERSION}: notifications on PostgreSQL

Usage: notifyd [command]

Commands:
  serve              run the API and the worker (default); NOTIFYD_ROLE=api|worker splits them
  migrate            apply pending database migrations (--status to list, --down to revert the newest)
  mcp                the MCP server on stdio (--read-only; --url to relay to a running instance)
  version            print the version
  help               this text

Configuration is read from the environment; see README.md. Without DATABASE_URL notifyd starts
an embedded PostgreSQL with its data in NOTIFYD_DATA_DIR (default ./.notifyd).
`;

/**
 * Each command resolves to the process exit code. Commands load their module on demand, so
 * `notifyd help` or a client command does not pay for loading the whole server.
 */
const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  serve: async () => (await import('./cli/serve.command.js')).serve(),
  migrate: async (args) => (await import('./cli/migrate.command.js')).migrate(args),
  mcp: async (args) => (await import('./cli/mcp.command.js')).mcp(args),
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

main(process.argv.slice(2)).then((code) => process.exit(code));
