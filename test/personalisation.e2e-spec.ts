import { jobRow, projectApi } from './helpers/project-api.js';
import { RecordingConnector, RecordingConnectorModule } from './helpers/recording-connector.js';
import { RecordingEmailConnector, RecordingEmailModule } from './helpers/recording-email-connector.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/** Issue 26: templates and inline content read the recipient's profile; preview renders for a real subscriber. */
describe('personalisation', () => {
  let t: TestApp;
  let sms: RecordingConnector;
  let email: RecordingEmailConnector;
  let project: { id: string; key: string };

  beforeAll(async () => {
    t = await startTestApp({
      env: { SMS_PROVIDER: 'recording', EMAIL_PROVIDER: 'recording-email' },
      imports: [RecordingConnectorModule, RecordingEmailModule],
    });
    sms = t.notifyd.app.get(RecordingConnector);
    email = t.notifyd.app.get(RecordingEmailConnector);
    project = await t.createProject();
    await t.db.sql(
      `INSERT INTO subscribers (project_id, id, email, phone, first_name, last_name, locale, timezone, data) VALUES
         ($1, 'amelie', 'amelie@example.com', '+33600000001', 'Amélie', 'Poulain', 'fr-FR', 'Europe/Paris', '{"plan":"pro","address":{"city":"Paris"}}'),
         ($1, 'bob', 'bob@example.com', '+15550000002', 'Bob', '<Smith>', 'en-US', 'America/New_York', '{"plan":"free"}'),
         ($1, 'anon', 'anon@example.com', NULL, NULL, NULL, NULL, NULL, '{}')`,
      [project.id],
    );
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    sms.reset();
    email.reset();
    await t.db.sql(`DELETE FROM jobs`);
    await t.db.sql(`DELETE FROM templates`);
  });

  const api = () => projectApi(t, project.key);
  const save = async (body: object) => expect((await api().post('/v1/templates', body)).status).toBe(200);
  const mailTo = (id: string) => email.messages.find((m) => m.subscriberId === id)!;

  it('a stored template reads subscriber.* and the top-level profile fields; its locale picks the variant', async () => {
    await save({
      id: 'welcome',
      channel: 'email',
      subject: 'Welcome {{ first_name }}',
      body: 'Hi {{ subscriber.first_name }} {{ subscriber.last_name }} ({{ subscriber.data.plan }}, {{ subscriber.data.address.city | default: "?" }})',
    });
    await save({
      id: 'welcome',
      channel: 'email',
      locale: 'fr',
      subject: 'Bienvenue {{ first_name }}',
      body: 'Bonjour {{ subscriber.first_name }}, fuseau {{ timezone }}',
      body_html: '<p>Bonjour {{ first_name }}</p>',
    });
    for (const id of ['amelie', 'bob', 'anon'])
      expect((await api().post('/v1/send', { channel: 'email', subscriber_id: id, template: 'welcome' })).status).toBe(
        200,
      );
    await t.worker.drainOnce();
    expect(mailTo('amelie')).toMatchObject({
      subject: 'Bienvenue Amélie',
      body: 'Bonjour Amélie, fuseau Europe/Paris',
      bodyHtml: '<p>Bonjour Amélie</p>',
    });
    expect(mailTo('bob')).toMatchObject({ subject: 'Welcome Bob', body: 'Hi Bob <Smith> (free, ?)' });
    // A profile without names renders them empty, never the placeholder.
    expect(mailTo('anon')).toMatchObject({ subject: 'Welcome ', body: 'Hi   (, ?)' });
  });

  it('vars win over profile fields of the same name', async () => {
    await save({ id: 'hello', channel: 'sms', body: '{{ first_name }}/{{ subscriber.first_name }}' });
    await api().post('/v1/send', {
      channel: 'sms',
      subscriber_id: 'amelie',
      template: 'hello',
      vars: { first_name: 'Mimi' },
    });
    await t.worker.drainOnce();
    expect(sms.messages[0].body).toBe('Mimi/Amélie');
  });

  it('inline content is rendered with Liquid per recipient (a batch personalised), HTML escaped, plain text untouched', async () => {
    const res = await api().post('/v1/batch', {
      channels: ['email'],
      subscribers: ['amelie', 'bob'],
      subject: 'Hi {{first_name}}',
      body: 'Hi {{first_name}}, your plan is {{ subscriber.data.plan | upcase }}{% if vip %} (VIP){% endif %}.',
      body_html: '<p>Hi {{ last_name }}</p>',
      vars: { vip: true },
      priority: 'bulk',
    });
    expect(res.status).toBe(200);
    await api().post('/v1/send', {
      channel: 'email',
      to: 'plain@example.com',
      subject: 'No markup',
      body: 'Just text: 100 % {not liquid}',
    });
    await t.worker.drainOnce();
    expect(mailTo('amelie')).toMatchObject({
      subject: 'Hi Amélie',
      body: 'Hi Amélie, your plan is PRO (VIP).',
      bodyHtml: '<p>Hi Poulain</p>',
    });
    expect(mailTo('bob')).toMatchObject({
      subject: 'Hi Bob',
      body: 'Hi Bob, your plan is FREE (VIP).',
      bodyHtml: '<p>Hi &lt;Smith&gt;</p>',
    });
    expect(email.messages.find((m) => m.recipient === 'plain@example.com')).toMatchObject({
      subject: 'No markup',
      body: 'Just text: 100 % {not liquid}',
    });
  });

  it('inline Liquid that does not parse is refused at the door; runaway inline content is bounded like a template', async () => {
    const broken = await api().post('/v1/send', { channel: 'sms', to: '+33600000077', body: 'Hi {% if x %}unclosed' });
    expect(broken.status).toBe(422);
    expect(broken.body.message).toMatch(/^inline body does not parse/);
    const runaway = await api().post('/v1/send', {
      channel: 'sms',
      to: '+33600000078',
      body: '{% for i in (1..1000000000) %}{{ i }}{% endfor %}',
    });
    await t.worker.drainOnce();
    const r = await jobRow(t, runaway.body.job_ids[0]);
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/^inline content \(sms\): body failed to render: .*(limit|TEMPLATE_)/i);
    expect(sms.messages).toHaveLength(0);
  });

  it('preview renders for a stored subscriber (profile, locale) and names subscriber_id when it is unknown or malformed', async () => {
    await save({
      id: 'welcome',
      channel: 'email',
      subject: 'Welcome {{ first_name }}',
      body: 'Hi {{ subscriber.first_name }} ({{ subscriber.data.plan }}) {{ extra }}',
    });
    await save({
      id: 'welcome',
      channel: 'email',
      locale: 'fr',
      subject: 'Bienvenue {{ first_name }}',
      body: 'Bonjour {{ subscriber.first_name }}',
    });
    const fr = await api().post('/v1/templates/welcome/preview', { subscriber_id: 'amelie' });
    expect(fr.status).toBe(200);
    expect(fr.body).toMatchObject({ locale: 'fr', subject: 'Bienvenue Amélie', body: 'Bonjour Amélie' });
    const en = await api().post('/v1/templates/welcome/preview', {
      subscriber_id: 'amelie',
      locale: 'en',
      vars: { extra: '!' },
    });
    expect(en.body).toMatchObject({ locale: null, subject: 'Welcome Amélie', body: 'Hi Amélie (pro) !' });
    const unknown = await api().post('/v1/templates/welcome/preview', { subscriber_id: 'nobody' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ error: 'subscriber_not_found' });
    expect(unknown.body.message).toMatch(/subscriber_id 'nobody' does not exist/);
    const bad = await api().post('/v1/templates/welcome/preview', { subscriber_id: '' });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/subscriber_id/);
  });
});
