import { WorkflowEngine } from '../../src/workflows/engine/workflow-engine.js';
import { SmtpSink } from '../fakes/smtp-sink.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Inline `{{var}}` in `body_html` (a send's own body_html, a workflow step's) is HTML-escaped,
 * as stored templates' are: a value from an end user (a name, a comment) cannot inject markup
 * or script into the email. Seen as delivered: nodemailer → a real SMTP server.
 */
describe('security: inline body_html escapes its variables', () => {
  const sink = new SmtpSink();
  let t: TestApp;
  let project: { id: string; key: string };

  beforeAll(async () => {
    const port = await sink.start();
    t = await startTestApp({
      env: {
        EMAIL_PROVIDER: 'smtp',
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(port),
        SMTP_SECURITY: 'none',
        EMAIL_FROM: 'notifications@acme.example',
      },
    });
    project = await t.createProject();
  });
  afterAll(async () => {
    await t.close();
    await sink.stop();
  });
  beforeEach(() => sink.reset());

  const hostile = { name: '<script>alert(1)</script>', url: '" onmouseover="alert(2)', note: '<i>trusted</i>' };

  it('a send: values are escaped in the HTML, `| raw` opts out, the text part stays plain', async () => {
    const res = await t.http
      .post('/v1/send')
      .set('X-Api-Key', project.key)
      .send({
        to: 'jane@customer.example',
        channels: ['email'],
        subject: 'Hi {{name}}',
        body: 'Hi {{name}}',
        body_html: '<p>Hi {{ name }}</p><a href="{{url}}">open</a>{{ note | raw }}',
        vars: hostile,
      });
    expect(res.status).toBe(200);
    expect(await t.worker.drainOnce()).toBe(1);
    expect(sink.received).toHaveLength(1);
    const mail = sink.received[0].parsed;
    expect(mail.html).toBe(
      '<p>Hi &lt;script&gt;alert(1)&lt;/script&gt;</p><a href="&#34; onmouseover=&#34;alert(2)">open</a><i>trusted</i>',
    );
    expect(mail.html).not.toContain('<script>');
    // Plain text is not HTML: escaping it would show entities to the reader.
    expect(mail.text?.trim()).toBe('Hi <script>alert(1)</script>');
    expect(mail.subject).toBe('Hi <script>alert(1)</script>');
  });

  it('a workflow send step: trigger payload values are escaped in its body_html', async () => {
    await t.http.post('/v1/subscribers').set('X-Api-Key', project.key).send({ id: 'u1', email: 'u1@customer.example' });
    const defined = await t.http
      .post('/v1/workflows')
      .set('X-Api-Key', project.key)
      .send({
        id: 'welcome',
        name: 'Welcome',
        trigger_event: 'signed_up',
        steps: [
          {
            type: 'send',
            channel: 'email',
            subject: 'Welcome',
            body: 'Welcome {{name}}',
            body_html: '<h1>Welcome {{name}}</h1>',
          },
        ],
      });
    expect(defined.status).toBe(200);
    const triggered = await t.http
      .post('/v1/workflows/trigger')
      .set('X-Api-Key', project.key)
      .send({ event: 'signed_up', subscriber_id: 'u1', payload: hostile });
    expect(triggered.status).toBe(200);
    expect(await t.notifyd.app.get(WorkflowEngine).drainOnce()).toBe(1);
    expect(await t.worker.drainOnce()).toBe(1);
    expect(sink.received).toHaveLength(1);
    expect(sink.received[0].parsed.html).toBe('<h1>Welcome &lt;script&gt;alert(1)&lt;/script&gt;</h1>');
  });
});
