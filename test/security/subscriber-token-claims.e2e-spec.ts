import { SignJWT } from 'jose';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** The test app's JWT_SECRET (test/helpers/test-app.ts). */
const SECRET = new TextEncoder().encode('test-jwt-secret-0123456789abcdef');

/**
 * Review of the inbox doors: verification checked `exp` only when a token carried one, so a
 * token signed with JWT_SECRET (or one of JWT_PREVIOUS_SECRETS) without an expiry, or with one
 * years away, opened the inbox for ever. notifyd mints 1–24 h tokens; verification now requires
 * `exp` and `iat`, at most 24 h apart, `iat` not in the future.
 */
describe('subscriber tokens: expiry required and bounded', () => {
  let t: TestApp;
  let project: { id: string; key: string };
  let claims: { project: string; pe: string; sv: string };

  beforeAll(async () => {
    t = await startTestApp();
    project = await t.createProject();
    expect((await t.http.post('/v1/subscribers').set('X-Api-Key', project.key).send({ id: 'u1' })).status).toBe(200);
    const minted = await t.http
      .post('/v1/auth/subscriber-token')
      .set('X-Api-Key', project.key)
      .send({ subscriber_id: 'u1', ttl_hours: 24 });
    expect(minted.status).toBe(200);
    const payload = JSON.parse(Buffer.from((minted.body.token as string).split('.')[1], 'base64url').toString());
    claims = { project: payload.project, pe: payload.pe, sv: payload.sv };
    // The genuine 24 h token works.
    expect((await counts(minted.body.token)).status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  const counts = (token: string) => t.http.get('/v1/inbox/u1/unread-count').set('Authorization', `Bearer ${token}`);
  const now = () => Math.floor(Date.now() / 1000);
  /** A token with notifyd's claims and signature, and the given iat/exp (undefined: left out). */
  const forge = (iat: number | undefined, exp: number | undefined) => {
    const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject('u1');
    jwt.setAudience('notifyd:inbox');
    if (iat !== undefined) jwt.setIssuedAt(iat);
    if (exp !== undefined) jwt.setExpirationTime(exp);
    return jwt.sign(SECRET);
  };

  it('a well-formed token within the bounds is accepted', async () => {
    expect((await counts(await forge(now() - 60, now() + 3_600))).status).toBe(200);
  });

  it.each([
    ['no exp', () => forge(now(), undefined)],
    ['no iat', () => forge(undefined, now() + 3_600)],
    ['neither', () => forge(undefined, undefined)],
    ['exp ten years away', () => forge(now(), now() + 10 * 365 * 86_400)],
    ['exp 25 h after iat', () => forge(now(), now() + 25 * 3_600)],
    ['iat in the future', () => forge(now() + 3_600, now() + 7_200)],
    ['iat older than 24 h', () => forge(now() - 25 * 3_600, now() + 3_600)],
  ])('%s: 401 naming the fix', async (_, token) => {
    const res = await counts(await token());
    expect([res.status, res.body.error]).toEqual([401, 'unauthorized']);
    expect(res.body.message).toMatch(/POST \/v1\/auth\/subscriber-token/);
  });
});
