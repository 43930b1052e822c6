import { ConfigError, loadConfig } from './app-config.js';

describe('loadConfig', () => {
  it('gives typed defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.server).toMatchObject({ role: 'all', port: 3400, bodyLimitBytes: 5 * 1024 * 1024 });
    expect(config.worker).toMatchObject({ batchSize: 100, pollIntervalMs: 500, maxAttempts: 5, leaseMs: 600_000 });
    expect(config.database).toMatchObject({ url: undefined, dataDir: './.notifyd', migrateOnBoot: true });
    expect(config.connectors.providers.email).toBeUndefined();
  });

  it('reads values and treats empty strings as unset', () => {
    const config = loadConfig({ WORKER_BATCH_SIZE: '500', NOTIFYD_ROLE: 'Worker', EMAIL_PROVIDER: 'LOG', PORT: '' });
    expect(config.worker.batchSize).toBe(500);
    expect(config.server.role).toBe('worker');
    expect(config.server.port).toBe(3400);
    expect(config.connectors.providers.email).toBe('log');
  });

  it('lists every bad variable by name, with the fix', () => {
    let error: unknown;
    try {
      loadConfig({ WORKER_BATCH_SIZE: 'lots', NOTIFYD_ROLE: 'both', DATABASE_URL: 'mysql://x', PORT: '70000' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/WORKER_BATCH_SIZE must be a whole number between 1 and 10000 \(got "lots"\)/);
    expect(problems).toMatch(/NOTIFYD_ROLE must be one of all, api, worker/);
    expect(problems).toMatch(/DATABASE_URL must be a PostgreSQL URL/);
    expect(problems).toMatch(/PORT must be at most 65535/);
  });

  it('never echoes a secret it rejects', () => {
    expect(() => loadConfig({ ADMIN_API_KEY: 'short-secret' })).toThrow(/ADMIN_API_KEY must be at least 16 characters/);
    try {
      loadConfig({ ADMIN_API_KEY: 'short-secret' });
    } catch (err) {
      expect((err as Error).message).not.toContain('short-secret');
    }
  });
});
