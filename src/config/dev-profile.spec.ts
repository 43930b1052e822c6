import { loadConfig } from './app-config.js';
import { devProfileBanner, withDevProfile } from './dev-profile.js';

describe('the development profile (npm run dev)', () => {
  it('binds 127.0.0.1, allows localhost origins and loopback webhook URLs, and the banner says so', () => {
    const env = withDevProfile({});
    const config = loadConfig(env);
    expect(config.server.host).toBe('127.0.0.1');
    expect(config.server.corsOrigins).toEqual(
      expect.arrayContaining(['http://localhost:5173', 'http://127.0.0.1:5173', 'http://localhost:8080']),
    );
    expect(config.server.corsOrigins.every((o) => /^http:\/\/(localhost|127\.0\.0\.1):\d+$/.test(o))).toBe(true);
    expect(config.outbound.allowLoopback).toBe(true);
    const banner = devProfileBanner(env, {
      host: config.server.host,
      corsOrigins: config.server.corsOrigins,
      allowLoopback: config.outbound.allowLoopback,
    });
    expect(banner).toMatch(/Development profile/);
    expect(banner).toMatch(/127\.0\.0\.1 only/);
    expect(banner).toMatch(/OUTBOUND_ALLOW_LOOPBACK=true/);
    expect(banner).toMatch(/CORS_ORIGINS/);
  });

  it('production defaults stay strict without it, and print no profile banner', () => {
    const config = loadConfig({});
    expect(config.server.host).toBe('0.0.0.0');
    expect(config.server.corsOrigins).toEqual(['http://localhost:3000', 'http://localhost:5173']);
    expect(config.outbound.allowLoopback).toBe(false);
    expect(devProfileBanner({}, { host: '0.0.0.0', corsOrigins: [], allowLoopback: false })).toBe('');
  });

  it('what the developer set wins; NODE_ENV=production is refused', () => {
    const config = loadConfig(
      withDevProfile({ HOST: '0.0.0.0', CORS_ORIGINS: 'https://app.example', OUTBOUND_ALLOW_LOOPBACK: 'false' }),
    );
    expect(config.server).toMatchObject({ host: '0.0.0.0', corsOrigins: ['https://app.example'] });
    expect(config.outbound.allowLoopback).toBe(false);
    expect(() => withDevProfile({ NODE_ENV: 'production' })).toThrow(/notifyd serve/);
  });
});
