import { ConfigError, loadConfig } from '../app-config.js';
import { parseDigestTarget } from './digest.config.js';

describe('digest notification config', () => {
  it('parses every target kind and refuses the rest', () => {
    expect(parseDigestTarget('slack:https://hooks.slack.com/services/T/B/X')).toEqual({
      kind: 'slack',
      to: 'https://hooks.slack.com/services/T/B/X',
    });
    expect(parseDigestTarget('Discord:https://discord.com/api/webhooks/1/x')?.kind).toBe('discord');
    expect(parseDigestTarget('telegram:-1001234')).toEqual({ kind: 'telegram', to: '-1001234' });
    expect(parseDigestTarget('telegram:@ops_channel')?.to).toBe('@ops_channel');
    expect(parseDigestTarget('email:ops@example.com')?.kind).toBe('email');
    for (const bad of [
      'slack:not-a-url',
      'slack:ftp://x/y',
      'telegram:abc',
      'email:nobody',
      'pager:1',
      'slack:',
      'https://hooks.slack.com',
    ]) {
      expect([bad, parseDigestTarget(bad)]).toEqual([bad, undefined]);
    }
  });

  it('defaults: no target, every 1d, level warning', () => {
    expect(loadConfig({}).digest).toMatchObject({ target: undefined, everyMs: 86_400_000, level: 'warning' });
    expect(loadConfig({ DIGEST_NOTIFY_EVERY: '30m', DIGEST_NOTIFY_LEVEL: 'Critical' }).digest).toMatchObject({
      everyMs: 1_800_000,
      level: 'critical',
    });
  });

  it('names the variable and the fix when a value is wrong', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return '';
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(problems({ DIGEST_NOTIFY: 'pager:1' })).toContain('DIGEST_NOTIFY must be slack:<incoming webhook URL>');
    expect(problems({ DIGEST_NOTIFY_EVERY: '1m' })).toContain('DIGEST_NOTIFY_EVERY must be between 5m and 30d');
    expect(problems({ DIGEST_NOTIFY_EVERY: 'daily' })).toContain(
      'DIGEST_NOTIFY_EVERY must be a duration such as 30m, 6h or 1d',
    );
    expect(problems({ DIGEST_NOTIFY_LEVEL: 'loud' })).toContain(
      'DIGEST_NOTIFY_LEVEL must be one of critical, warning, info, always',
    );
    expect(problems({ DIGEST_NOTIFY: 'telegram:-100' })).toContain('DIGEST_NOTIFY_TELEGRAM_BOT_TOKEN is not set');
    expect(() => loadConfig({ DIGEST_NOTIFY: 'pager:1' })).toThrow(ConfigError);
  });
});
