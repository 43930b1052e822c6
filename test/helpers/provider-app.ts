import type { Channel, OutboundMessage } from '../../src/connectors/connector.js';
import { installLoopbackOnlyGuard } from './loopback-only.js';
import { startTestApp, type TestApp } from './test-app.js';

/** A provider fake: a local server the app is pointed at. */
export interface StartableFake {
  start(): Promise<unknown>;
  stop(): Promise<void>;
}

export interface ProviderAppOptions {
  /**
   * The fakes, constructed (not started) by the spec; started before the app, stopped after it.
   * Fakes that need something made first (a TLS certificate) come from a function, called then.
   */
  fakes: readonly StartableFake[] | (() => Promise<readonly StartableFake[]>);
  /** The app's environment, read once the fakes are started (so their URLs are known). */
  env: () => Record<string, string>;
  /** Forget what each fake recorded (its `requests`) before every test. */
  clearRequests?: boolean;
  /** Install the loopback-only connection guard for the whole block (suites that test address checks). */
  loopbackOnly?: boolean;
}

/** A job row as the provider specs read it back. */
export interface JobRow {
  status: string;
  attempts: number;
  provider: string | null;
  provider_message_id: string | null;
  error: string | null;
}

export interface ProviderApp {
  readonly t: TestApp;
  readonly project: { id: string; key: string };
  /** Every connection target attempted since boot (only with loopbackOnly). */
  readonly connectionAttempts: string[];
  /** POST /v1/send with this body as the project; expects 200 and returns the first job id. */
  send(body: Record<string, unknown>): Promise<string>;
  job(id: string): Promise<JobRow>;
}

/**
 * The boot and teardown every provider spec repeats, registered on the calling describe block:
 * start the fakes, boot the app against them and create a project; afterwards close the app,
 * stop the fakes and lift the guard. The spec keeps its own assertions.
 */
export function useProviderApp(options: ProviderAppOptions): ProviderApp {
  let t: TestApp | undefined;
  let project: { id: string; key: string } | undefined;
  let guard: ReturnType<typeof installLoopbackOnlyGuard> | undefined;
  let fakes: readonly StartableFake[] = typeof options.fakes === 'function' ? [] : options.fakes;
  const started = () => {
    if (!t || !project) throw new Error('useProviderApp: the app is not booted yet (use it inside tests or hooks)');
    return { t, project };
  };

  beforeAll(async () => {
    if (options.loopbackOnly) guard = installLoopbackOnlyGuard();
    if (typeof options.fakes === 'function') fakes = await options.fakes();
    await Promise.all(fakes.map((fake) => fake.start()));
    t = await startTestApp({ env: options.env() });
    project = await t.createProject();
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all(fakes.map((fake) => fake.stop()));
    guard?.restore();
  });
  if (options.clearRequests) {
    beforeEach(() => {
      for (const fake of fakes) (fake as { requests?: unknown[] }).requests?.splice(0);
    });
  }

  return {
    get t() {
      return started().t;
    },
    get project() {
      return started().project;
    },
    get connectionAttempts() {
      if (!guard) throw new Error('useProviderApp: connectionAttempts needs loopbackOnly: true');
      return guard.attempts;
    },
    async send(body) {
      const { t, project } = started();
      const res = await t.http.post('/v1/send').set('X-Api-Key', project.key).send(body);
      expect(res.status).toBe(200);
      return res.body.job_ids[0] as string;
    },
    async job(id) {
      return (
        await started().t.db.sql<JobRow>(
          `SELECT status, attempts, provider, provider_message_id, error FROM jobs WHERE id = $1`,
          [id],
        )
      )[0];
    },
  };
}

/** A message as the worker hands it to a connector, for asking a connector directly; the spec sets what it checks. */
export function outboundMessage(
  fields: { channel: Channel; recipient: string } & Partial<OutboundMessage>,
): OutboundMessage {
  return {
    jobId: '00000000-0000-4000-8000-000000000001',
    projectId: 'p',
    subscriberId: null,
    marketing: false,
    priority: 50,
    attempt: 1,
    idempotencyKey: 'k',
    payload: {},
    ...fields,
  };
}

/** An SMS as the worker hands it to an SMS connector (Twilio, Telnyx), for asking the connector directly. */
export function smsMessage(recipient: string, extra: Partial<OutboundMessage> = {}): OutboundMessage {
  return outboundMessage({ channel: 'sms', recipient, body: 'Your code is 123456', ...extra });
}

let pushJobs = 0;

/** A push message for a subscriber of `projectId`, each with its own job id, as the push specs ask the connector directly. */
export function pushMessage(
  projectId: string,
  subscriberId: string,
  extra: Partial<OutboundMessage> = {},
): OutboundMessage {
  return outboundMessage({
    jobId: `00000000-0000-4000-8000-${String(++pushJobs).padStart(12, '0')}`,
    projectId,
    channel: 'push',
    recipient: subscriberId,
    subscriberId,
    subject: 'Title',
    body: 'Text',
    ...extra,
  });
}

/** An email job sent through the API and finished by one worker pass; what the provider-webhook specs report events about. */
export async function sentEmail(app: ProviderApp, to: string): Promise<{ id: string; to: string; messageId: string }> {
  const id = await app.send({ channels: ['email'], to, subject: 'Hi', body: 'Hello' });
  await app.t.worker.drainOnce();
  const job = await app.job(id);
  expect(job.status).toBe('sent');
  return { id, to, messageId: job.provider_message_id as string };
}
