import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Notifyd, NotifydError } from '../src/index.js';
import { createProject, NOTIFYD_URL, until } from './harness.js';

describe('jobs, workflows and webhooks', () => {
  let notifyd: Notifyd;

  before(async () => {
    notifyd = new Notifyd({ baseUrl: NOTIFYD_URL, apiKey: (await createProject()).key });
    await notifyd.subscribers.upsert({ id: 'jane', email: 'jane@example.com' });
  });

  it('cancels a scheduled job and queues it again with retry', async () => {
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await notifyd.schedule({ subscriber_id: 'jane', channels: ['email'], subject: 's', body: 'later', scheduled_at: later });
    const id = scheduled.job_ids[0]!;
    assert.equal((await notifyd.jobs.cancel(id)).id, id);
    const cancelled = await notifyd.jobs.wait(id, { timeoutMs: 5_000 });
    assert.equal(cancelled.status, 'cancelled');
    const retried = await notifyd.jobs.retry(id).catch((e: unknown) => e);
    // notifyd retries failed jobs; a cancelled one is either queued again or refused with a code saying why.
    if (retried instanceof NotifydError) assert.equal(retried.status, 409);
    else assert.equal((retried as { job: { id: string } }).job.id, id);
  });

  it('gives up waiting on a job that is not final with wait_timeout and the job', async () => {
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await notifyd.schedule({ subscriber_id: 'jane', channels: ['email'], subject: 's', body: 'later', scheduled_at: later });
    const error = await notifyd.jobs.wait(scheduled.job_ids[0]!, { timeoutMs: 1_000 }).catch((e: unknown) => e);
    assert.ok(error instanceof NotifydError);
    assert.equal(error.code, 'wait_timeout');
    assert.equal((error.details.job as { status: string }).status, 'pending');
    await notifyd.jobs.cancel(scheduled.job_ids[0]!);
  });

  it('upserts and triggers a workflow, and a replayed trigger returns the same run', async () => {
    await notifyd.workflows.upsert({ id: 'welcome', name: 'Welcome', trigger_event: 'user.signed_up', steps: [{ type: 'send', channel: 'email', subject: 'Welcome', body: 'Hello {{name}}' }] });
    assert.deepEqual((await notifyd.workflows.list()).workflows.map((w) => w.id), ['welcome']);
    const first = await notifyd.workflows.trigger({ event: 'user.signed_up', subscriber_id: 'jane', payload: { name: 'Jane' }, idempotency_key: 'signup-jane' });
    assert.equal(first.workflow_runs.length, 1);
    const again = await notifyd.workflows.trigger({ event: 'user.signed_up', subscriber_id: 'jane', payload: { name: 'Jane' }, idempotency_key: 'signup-jane' });
    assert.deepEqual([again.workflow_runs, again.deduplicated], [first.workflow_runs, true]);
    const run = await until(async () => {
      const { run } = await notifyd.workflows.run(first.workflow_runs[0]!);
      return run.finished_at ? run : undefined;
    });
    assert.equal(run.outcome, 'completed');
  });

  it('lists, updates and deletes webhooks', async () => {
    const created = await notifyd.webhooks.create({ url: 'https://hooks.example.com/notifyd', events: ['job.failed'] });
    assert.deepEqual((await notifyd.webhooks.list()).webhooks.map((w) => w.id), [created.id]);
    const updated = await notifyd.webhooks.update(created.id, { enabled: false });
    assert.equal(updated.webhook.enabled, false);
    assert.deepEqual((await notifyd.webhooks.deliveries(created.id)).items, []);
    await notifyd.webhooks.delete(created.id);
    const gone = await notifyd.webhooks.get(created.id).catch((e: unknown) => e);
    assert.ok(gone instanceof NotifydError && gone.status === 404);
  });
});
