import type { OutboundMessage } from '../connector.js';
import { emailContent } from './email-content.js';

describe('emailContent tags', () => {
  const message = (tags: unknown): OutboundMessage => ({
    jobId: '0197a000-0000-7000-8000-000000000001',
    projectId: 'p1',
    channel: 'email',
    recipient: 'jane@example.com',
    subscriberId: null,
    body: 'hello',
    marketing: false,
    priority: 50,
    attempt: 1,
    idempotencyKey: 'k',
    payload: { tags },
  });
  const options = { defaultFrom: { email: 'noreply@example.com' } };

  it('sends the caller’s tags and notifyd_job_id naming this job', () => {
    expect(emailContent(message([{ name: 'category', value: 'order' }]), options).tags).toEqual([
      { name: 'category', value: 'order' },
      { name: 'notifyd_job_id', value: '0197a000-0000-7000-8000-000000000001' },
    ]);
  });

  it('drops a reserved tag a job queued before the enqueue check carries (it named another job)', () => {
    const forged = [
      { name: 'notifyd_job_id', value: '0197a000-0000-7000-8000-00000000beef' },
      { name: 'NOTIFYD_x', value: 'y' },
      { name: 'category', value: 'order' },
    ];
    expect(emailContent(message(forged), options).tags).toEqual([
      { name: 'category', value: 'order' },
      { name: 'notifyd_job_id', value: '0197a000-0000-7000-8000-000000000001' },
    ]);
  });
});
