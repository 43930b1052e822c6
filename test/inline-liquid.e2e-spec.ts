import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Inline subject/body/body_html with Liquid markup are rendered by the worker; one that does not
 * parse could only fail there. The admission pipeline parses it first: a 422 naming the part,
 * on every door that queues content (single sends and batches here), and no job.
 */
describe('inline Liquid is checked at the door', () => {
  let t: TestApp;
  let project: { id: string; key: string };
  beforeAll(async () => {
    t = await startTestApp();
    project = await t.createProject();
  });
  afterAll(() => t.close());

  const post = (path: string, body: object) => t.http.post(path).set('X-Api-Key', project.key).send(body);
  const jobs = async () =>
    Number((await t.db.sql(`SELECT count(*)::int AS n FROM jobs WHERE project_id = $1`, [project.id]))[0].n);

  it('a send whose inline Liquid does not parse is a 422 naming the part; nothing is queued', async () => {
    const before = await jobs();
    const body = await post('/v1/send', { channel: 'sms', to: '+33600000071', body: 'Hi {% if vip %}friend' });
    expect(body.status).toBe(422);
    expect(body.body).toMatchObject({
      error: 'template_invalid',
      message: expect.stringMatching(/^inline body does not parse: /),
    });
    const subject = await post('/v1/send', {
      channel: 'email',
      to: 'ann@example.com',
      subject: 'Order {{ order.id ',
      body: 'ok',
    });
    expect(subject.status).toBe(422);
    expect(subject.body.message).toMatch(/^inline subject does not parse: /);
    const batch = await post('/v1/batch', {
      channel: 'in_app',
      subscribers: ['s1', 's2'],
      body: '{% for x in list %}{{ x }}',
    });
    expect(batch.status).toBe(422);
    expect(batch.body).toMatchObject({
      error: 'template_invalid',
      message: expect.stringMatching(/^inline body does not parse: /),
    });
    expect(await jobs()).toBe(before);
  });

  it('inline Liquid that parses, and text without markup, are queued as before', async () => {
    const liquid = await post('/v1/send', {
      channel: 'sms',
      to: '+33600000074',
      body: 'Hi {{ name | default: "you" }}',
    });
    expect(liquid.status).toBe(200);
    expect(liquid.body.job_ids).toHaveLength(1);
    // The same inline template again: remembered as good, still queued.
    expect(
      (await post('/v1/send', { channel: 'sms', to: '+33600000075', body: 'Hi {{ name | default: "you" }}' })).status,
    ).toBe(200);
    const plain = await post('/v1/send', { channel: 'sms', to: '+33600000076', body: 'a { b } c %} d' });
    expect(plain.status).toBe(200);
  });
});
