import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { installLoopbackOnlyGuard } from '../../../test/helpers/loopback-only.js';
import { addressRefusal } from './address-policy.js';
import { assertResolvesPublic, type Resolver } from './guarded-lookup.js';
import { assertPublicHttpUrl } from './public-url.js';
import { safeFetch } from './safe-fetch.js';
import { UnsafeUrlError } from './unsafe-url.error.js';

/** A loopback server that counts every TCP connection it accepts. */
async function listen(
  handler: Parameters<typeof createServer>[1],
): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer(handler);
  server.on('connection', (_: Socket) => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections };
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

const fixed =
  (...answers: string[][]): Resolver =>
  async () => {
    const next = answers.length > 1 ? answers.shift()! : answers[0];
    return next.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('SSRF guard', () => {
  let canary: Awaited<ReturnType<typeof listen>>;
  let guard: ReturnType<typeof installLoopbackOnlyGuard>;

  beforeAll(async () => {
    guard = installLoopbackOnlyGuard();
    canary = await listen((_, res) => res.end('canary'));
  });
  afterAll(async () => {
    await close(canary.server);
    guard.restore();
  });

  describe('address policy', () => {
    it.each([
      ['127.0.0.1', 'loopback'],
      ['::1', 'loopback'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['10.1.2.3', 'private'],
      ['192.168.0.1', 'private'],
      ['172.16.5.4', 'private'],
      ['169.254.169.254', 'linkLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['0.0.0.0', 'unspecified'],
      ['fd00::1', 'uniqueLocal'],
      ['fe80::1', 'linkLocal'],
      ['224.0.0.1', 'multicast'],
      ['64:ff9b::a9fe:a9fe', 'rfc6052'],
    ])('refuses %s (%s)', (address, range) => {
      expect(addressRefusal(address)).toContain(range);
    });

    it('allows public unicast addresses, and loopback only when asked', () => {
      expect(addressRefusal('93.184.216.34')).toBeUndefined();
      expect(addressRefusal('2606:2800:220:1::1')).toBeUndefined();
      expect(addressRefusal('127.0.0.1', { allowLoopback: true })).toBeUndefined();
      expect(addressRefusal('10.0.0.1', { allowLoopback: true })).toContain('private');
      expect(addressRefusal('169.254.169.254', { allowLoopback: true })).toContain('linkLocal');
    });
  });

  describe('refuses every private target before connecting (the canary sees nothing)', () => {
    const targets = () => [
      'http://169.254.169.254/latest/meta-data/',
      `http://127.0.0.1:${canary.port}/`,
      `http://2130706433:${canary.port}/`,
      `http://0x7f.1:${canary.port}/`,
      `http://0177.0.0.1:${canary.port}/`,
      `http://[::ffff:127.0.0.1]:${canary.port}/`,
      `http://[::1]:${canary.port}/`,
      'http://[fd00::1]/',
      'http://100.64.0.1/',
      `http://0.0.0.0:${canary.port}/`,
      `http://localhost:${canary.port}/`,
      `http://api.localhost:${canary.port}/`,
      'file:///etc/passwd',
      'gopher://example.com/',
      `http://user:secret@example.com/`,
    ];

    it('for literal, encoded and special hosts', async () => {
      for (const url of targets()) {
        await expect(safeFetch(url, {}, {})).rejects.toBeInstanceOf(UnsafeUrlError);
      }
      expect(canary.connections()).toBe(0);
    });

    it('for a host name that resolves to loopback or to a private address (checked at connect time)', async () => {
      await expect(
        safeFetch(`http://canary.test:${canary.port}/`, {}, { resolver: fixed(['127.0.0.1']) }),
      ).rejects.toThrow(/loopback/);
      await expect(
        safeFetch(`http://internal.test:${canary.port}/`, {}, { resolver: fixed(['10.0.0.7']) }),
      ).rejects.toThrow(/private/);
      // One bad address among good ones is enough to refuse: the socket could pick any of them.
      await expect(
        safeFetch(`http://mixed.test:${canary.port}/`, {}, { resolver: fixed(['93.184.216.34', '127.0.0.1']) }),
      ).rejects.toThrow(/loopback/);
      expect(canary.connections()).toBe(0);
    });

    it('for a rebinding resolver: public when registered, loopback when sent', async () => {
      const rebinding = fixed(['93.184.216.34'], ['127.0.0.1']);
      const url = assertPublicHttpUrl(`http://rebind.test:${canary.port}/hook`);
      await expect(assertResolvesPublic(url, {}, rebinding)).resolves.toBeUndefined();
      await expect(safeFetch(url, {}, { resolver: rebinding })).rejects.toThrow(/loopback/);
      expect(canary.connections()).toBe(0);
    });

    it('for plain http when https is required', () => {
      expect(() => assertPublicHttpUrl('http://hooks.example.com/x', { httpsOnly: true })).toThrow(/https/);
      expect(assertPublicHttpUrl('https://hooks.example.com/x', { httpsOnly: true }).hostname).toBe(
        'hooks.example.com',
      );
    });

    it('at registration, with a clear reason, for a name that resolves privately', async () => {
      await expect(assertResolvesPublic(new URL('https://meta.test/'), {}, fixed(['169.254.169.254']))).rejects.toThrow(
        'meta.test resolves to a non-public address: 169.254.169.254 is a linkLocal address; only public addresses may be reached',
      );
    });
  });

  it('never follows a redirect: a 302 to the canary comes back as the answer', async () => {
    const redirector = await listen((_, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${canary.port}/` });
      res.end();
    });
    try {
      const res = await safeFetch(
        `http://127.0.0.1:${redirector.port}/hook`,
        { method: 'POST', body: '{}' },
        { allowLoopback: true },
      );
      expect(res.status).toBe(302);
      expect(redirector.connections()).toBe(1);
      expect(canary.connections()).toBe(0);
    } finally {
      await close(redirector.server);
    }
  });

  it('reaches an allowed target (loopback allowed for tests) and returns its answer', async () => {
    const target = await listen((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`${req.method} ${req.url}`);
    });
    try {
      const res = await safeFetch(
        `http://named.test:${target.port}/ok`,
        { method: 'POST', body: 'x' },
        { allowLoopback: true, resolver: fixed(['127.0.0.1']) },
      );
      expect(await res.text()).toBe('POST /ok');
      expect(target.connections()).toBe(1);
    } finally {
      await close(target.server);
    }
  });

  it('no connection to a non-loopback address was ever attempted', () => {
    expect(guard.attempts.filter((host) => !/^(127\.|::1|localhost$|[a-z.-]+\.test$)/.test(host))).toEqual([]);
  });
});
