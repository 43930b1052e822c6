import { loadConfig } from '../config/app-config.js';
import { openDatabase } from '../database/database.js';
import { pendingMigrations, revertLastMigration, runMigrations } from '../database/migration-runner.js';
import { createLogger } from '../logging/logger.js';

/** `notifyd migrate [--down|--status]`: apply pending migrations (or revert the newest, or list). */
export async function migrate(args: string[]): Promise<number> {
  // Migrations sign nothing: a migrate job needs DATABASE_URL only.
  const config = loadConfig(process.env, { requireSecrets: false });
  const logger = createLogger(config.server.logLevel === 'info' ? 'warn' : config.server.logLevel);
  const database = await openDatabase(config.database, logger);
  try {
    if (args.includes('--status')) {
      const pending = await pendingMigrations(database.dataSource);
      process.stdout.write(pending.length ? `pending: ${pending.join(', ')}\n` : 'up to date\n');
      return pending.length ? 2 : 0;
    }
    if (args.includes('--down')) {
      await revertLastMigration(database.dataSource);
      process.stdout.write('reverted the newest migration\n');
      return 0;
    }
    const applied = await runMigrations(database.dataSource);
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'up to date: nothing to apply\n');
    return 0;
  } finally {
    await database.close();
  }
}
