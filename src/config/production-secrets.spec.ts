import { ConfigError, loadConfig } from './app-config.js';
import { missingProductionSecrets } from './production-secrets.js';

const DB = 'postgres://notifyd@db.internal:5432/notifyd';
const SECRET = 'jwt-secret-0123456789abcdef';

describe('production secrets', () => {
  it('a start with a database or an admin key needs JWT_SECRET; the embedded first start does not', () => {
    expect(missingProductionSecrets({})).toEqual([]);
    expect(missingProductionSecrets({ DATABASE_URL: DB, JWT_SECRET: SECRET })).toEqual([]);
    for (const env of [
      { DATABASE_URL: DB },
      { ADMIN_API_KEY: 'admin-key-0123456789abcdef' },
      { DATABASE_URL: DB, JWT_SECRET: '   ' },
    ]) {
      expect(missingProductionSecrets(env)).toEqual([
        expect.stringMatching(
          /^JWT_SECRET is required when DATABASE_URL or ADMIN_API_KEY is set: set it to at least 16 random characters \(openssl rand -hex 24\)/,
        ),
      ]);
    }
    // Blank means unset: an empty DATABASE_URL in a .env file is the embedded start.
    expect(missingProductionSecrets({ DATABASE_URL: '', ADMIN_API_KEY: ' ' })).toEqual([]);
  });

  it('is listed with every other problem of the environment at once, and never echoes a secret', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({ DATABASE_URL: DB, WORKER_BATCH_SIZE: 'lots', JWT_PREVIOUS_SECRETS: 'short' });
    } catch (err) {
      error = err as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems).toEqual([
      expect.stringMatching(/^JWT_PREVIOUS_SECRETS each entry must be at least 16 characters/),
      expect.stringMatching(/^WORKER_BATCH_SIZE must be a whole number/),
      expect.stringMatching(/^JWT_SECRET is required/),
    ]);
    expect(error!.message).not.toContain('short');
  });

  it('notifyd migrate (which signs nothing) may run with the database alone', () => {
    expect(() => loadConfig({ DATABASE_URL: DB })).toThrow(ConfigError);
    expect(loadConfig({ DATABASE_URL: DB }, { requireSecrets: false }).database.url).toBe(DB);
  });

  it('JWT_PREVIOUS_SECRETS is a comma-separated list', () => {
    expect(
      loadConfig({
        DATABASE_URL: DB,
        JWT_SECRET: SECRET,
        JWT_PREVIOUS_SECRETS: 'old-secret-0123456789, older-secret-0123456789',
      }).auth.jwtPreviousSecrets,
    ).toEqual(['old-secret-0123456789', 'older-secret-0123456789']);
  });
});
