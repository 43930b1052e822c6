import { ConfigError, loadConfig } from './app-config.js';
import { fastifyTrustProxy, parseTrustProxy } from './trust-proxy.js';

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['off', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.0/8', ['10.0.0.0/8']],
    [' 10.0.0.0/8 , 192.168.1.10,fd00::/8, loopback ', ['10.0.0.0/8', '192.168.1.10', 'fd00::/8', 'loopback']],
  ])('%j → %j', (raw, value) => expect(parseTrustProxy(raw)).toEqual({ ok: true, value }));

  it('is off by default', () => expect(loadConfig({}).server.trustProxy).toBe(false));

  it.each([
    ['true', /would trust the X-Forwarded-For any client writes/],
    ['*', /would trust/],
    ['99', /must be a hop count of at most 32/],
    ['10.0.0.0/99', /'10\.0\.0\.0\/99' is not an IP address, a CIDR range/],
    ['proxy.internal', /'proxy\.internal' is not an IP address/],
  ])('refuses %s, naming the variable', (raw, message) => {
    let error: unknown;
    try {
      loadConfig({ TRUST_PROXY: raw });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.join('\n')).toMatch(new RegExp(`TRUST_PROXY ${message.source}`));
  });

  it('a hop count trusts that many addresses from the socket inwards', () => {
    const trust = fastifyTrustProxy(2) as (address: string, hop: number) => boolean;
    expect([trust('10.0.0.1', 0), trust('10.0.0.2', 1), trust('203.0.113.9', 2)]).toEqual([true, true, false]);
    expect(fastifyTrustProxy(false)).toBe(false);
  });
});
