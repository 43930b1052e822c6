import { ADMIN_KEY, startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The audit log records the caller's IP (request.ip). With proxies always trusted, anyone could
 * write any address there with X-Forwarded-For. TRUST_PROXY is off by default; a hop count
 * trusts that many proxies in front of notifyd, an address/CIDR list trusts only those.
 * The tests connect from 127.0.0.1, which plays the proxy.
 */
describe('security: X-Forwarded-For and the audit log’s IP', () => {
  let counter = 0;

  /** Creates a project with this X-Forwarded-For and returns the IP its audit line recorded. */
  async function auditedIp(t: TestApp, forwardedFor: string): Promise<string> {
    const id = `xff${process.pid}x${++counter}`;
    const res = await t.http
      .post('/v1/admin/projects')
      .set('X-Api-Key', ADMIN_KEY)
      .set('X-Forwarded-For', forwardedFor)
      .send({ id, name: id });
    expect(res.status).toBe(201);
    const [row] = await t.db.sql(`SELECT ip FROM audit_log WHERE action = 'project.created' AND resource = $1`, [id]);
    return row.ip;
  }

  function withEnv(env: Record<string, string>, body: (app: () => TestApp) => void) {
    let t: TestApp;
    beforeAll(async () => (t = await startTestApp({ env })));
    afterAll(() => t.close());
    body(() => t);
  }

  describe('default (TRUST_PROXY unset)', () => {
    withEnv({}, (t) => {
      it('ignores X-Forwarded-For: the audit line has the peer address', async () => {
        expect(await auditedIp(t(), '203.0.113.9')).toBe('127.0.0.1');
        expect(await auditedIp(t(), '198.51.100.1, 203.0.113.9')).toBe('127.0.0.1');
      });
    });
  });

  describe('TRUST_PROXY=1', () => {
    withEnv({ TRUST_PROXY: '1' }, (t) => {
      it('honours one hop: the address the proxy appended, not what the client wrote before it', async () => {
        expect(await auditedIp(t(), '203.0.113.9')).toBe('203.0.113.9');
        expect(await auditedIp(t(), '198.51.100.1, 203.0.113.9')).toBe('203.0.113.9');
      });
    });
  });

  describe('TRUST_PROXY as a list', () => {
    withEnv({ TRUST_PROXY: '127.0.0.1/32, 10.0.0.0/8' }, (t) => {
      it('walks back through the listed proxies only', async () => {
        expect(await auditedIp(t(), '198.51.100.1, 203.0.113.9, 10.1.2.3')).toBe('203.0.113.9');
        expect(await auditedIp(t(), '203.0.113.9')).toBe('203.0.113.9');
      });
    });
    withEnv({ TRUST_PROXY: '10.0.0.0/8' }, (t) => {
      it('a peer not in the list is the client, whatever it forwards', async () => {
        expect(await auditedIp(t(), '203.0.113.9')).toBe('127.0.0.1');
      });
    });
  });
});
