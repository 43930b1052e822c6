import { randomUUID } from 'node:crypto';
import type { Connector, OutboundMessage } from '../../src/connectors/connector.js';
import { PacingService } from '../../src/pacing/pacing.service.js';
import { type StartableFake, useProviderApp } from './provider-app.js';
import type { TestApp } from './test-app.js';

/** Sending email through the API and reading the jobs back, shared by the email connector tests. */
export function emailTestKit(app: () => TestApp, project: () => { key: string }, provider: string) {
  return {
    async send(body: Record<string, unknown>): Promise<string> {
      const res = await app()
        .http.post('/v1/send')
        .set('X-Api-Key', project().key)
        .send({ channels: ['email'], subject: 'Hello', body: 'Plain body', ...body });
      if (res.status !== 200) throw new Error(`send: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.job_ids[0] as string;
    },
    async job(id: string) {
      return (await app().db.sql(`SELECT * FROM jobs WHERE id = $1`, [id]))[0];
    },
    /**
     * The pause put on the lane since fresh() lifted it, read from the lane's row: a short one
     * (Retry-After: 2, or 0 and the dispatcher's 500 ms floor) may be over by the time a loaded
     * machine has drained and read the job, and PacingService.pauseOf() reports only a pause in force.
     */
    async pause(): Promise<{ kind: string } | undefined> {
      const [row] = await app().db.sql<{ kind: string }>(
        `SELECT pause_kind AS kind FROM pacing_lanes WHERE lane_key = $1 AND pause_kind IS NOT NULL`,
        [`email:${provider}`],
      );
      return row;
    },
    /** Each test starts with an empty queue and its lane running. */
    async fresh(): Promise<void> {
      await app().notifyd.app.get(PacingService).resume({ channel: 'email', provider });
      await app().db.sql(`DELETE FROM jobs`);
    },
  };
}

/**
 * The set-up every email connector spec shares, registered on the calling describe block: its
 * fake started, the app booted with EMAIL_PROVIDER=<provider>, a 3 s OUTBOUND_TIMEOUT_MS (short
 * enough for the stall rows, long enough for a cold first call on a loaded CI machine) and the
 * sender hello@acme.example ("Acme") under the spec's own variables; before each test the fake
 * forgets, the queue is emptied and the lane runs.
 */
export function useEmailProviderApp(
  provider: string,
  fake: StartableFake & { reset(): void },
  env: () => Record<string, string>,
) {
  const app = useProviderApp({
    fakes: [fake],
    env: () => ({
      EMAIL_PROVIDER: provider,
      OUTBOUND_TIMEOUT_MS: '3000',
      EMAIL_FROM: 'hello@acme.example',
      EMAIL_FROM_NAME: 'Acme',
      ...env(),
    }),
  });
  const kit = emailTestKit(
    () => app.t,
    () => app.project,
    provider,
  );
  beforeEach(async () => {
    fake.reset();
    await kit.fresh();
  });
  return { app, kit };
}

/** One row of a connector's error table: what the fake answers, and what the job becomes. */
export interface ErrorRow {
  label: string;
  status: 'pending' | 'retry' | 'failed' | 'bounced';
  attempts: number;
  error: RegExp;
  /** The lane pause the answer must cause: none, a rate-limit pause or a quota pause. */
  pause?: 'rate_limited' | 'quota_exhausted';
  /** The address will never work (the connector sets deadRecipient). */
  dead?: boolean;
}

/** A message as the worker hands it to a connector, for asking a connector directly how it classifies an answer. */
export function outboundEmail(to: string, overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  const jobId = randomUUID();
  return {
    jobId,
    projectId: 'direct',
    channel: 'email',
    recipient: to,
    subscriberId: null,
    subject: 'Direct',
    body: 'Direct body',
    from: { email: 'hello@acme.example' },
    marketing: false,
    priority: 50,
    attempt: 1,
    idempotencyKey: jobId,
    payload: {},
    ...overrides,
  };
}

/** The error a connector reports for one message (throws if it accepted it). */
export async function refusalOf(connector: Connector, message: OutboundMessage) {
  const [result] = await connector.send([message]);
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return {
    kind: result.error.kind,
    dead: result.error.deadRecipient,
    quota: result.error.quotaExhausted,
    retryAfterMs: result.error.retryAfterMs,
  };
}
