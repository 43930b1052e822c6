import type { SignalsService, SignalSubscriber } from '../../database/signals/signals.service.js';
import { JOBS_DUE_TOPIC, WorkerWakeup } from './worker-wakeup.js';

/** The two SignalsService calls WorkerWakeup makes, recorded. */
function fakeSignals() {
  const sent: string[] = [];
  const subscribers = new Map<string, SignalSubscriber>();
  const signals = {
    send: (topic: string, key: string) => void sent.push(`${topic}:${key}`),
    subscribe: (topic: string, s: SignalSubscriber) => {
      subscribers.set(topic, s);
      return () => subscribers.delete(topic);
    },
  } as unknown as SignalsService;
  return { signals, sent, subscribers };
}

const elapsed = async (p: Promise<void>) => {
  const start = Date.now();
  await p;
  return Date.now() - start;
};

describe('WorkerWakeup', () => {
  let wakeup: WorkerWakeup;
  let fake: ReturnType<typeof fakeSignals>;
  beforeEach(() => {
    fake = fakeSignals();
    wakeup = new WorkerWakeup(fake.signals);
    wakeup.onModuleInit();
  });

  it('a jobs.due signal or a resync ends the sleep', async () => {
    const sleeping = wakeup.sleep(60_000);
    fake.subscribers.get(JOBS_DUE_TOPIC)!.received('sms');
    expect(await elapsed(sleeping)).toBeLessThan(1_000);
    const again = wakeup.sleep(60_000);
    fake.subscribers.get(JOBS_DUE_TOPIC)!.resync();
    expect(await elapsed(again)).toBeLessThan(1_000);
  });

  it('a wake while awake ends the next sleep at once', async () => {
    wakeup.wake();
    expect(await elapsed(wakeup.sleep(60_000))).toBeLessThan(1_000);
  });

  it('jobsDue wakes locally and signals once per channel; a job for later only shortens the sleep', async () => {
    wakeup.jobsDue(['sms', 'sms', 'email']);
    expect(fake.sent).toEqual(['jobs.due:sms', 'jobs.due:email']);
    await wakeup.sleep(60_000);
    wakeup.jobsDue();
    expect(fake.sent.at(-1)).toBe('jobs.due:*');
    await wakeup.sleep(60_000);

    fake.sent.length = 0;
    const sleeping = wakeup.sleep(60_000);
    wakeup.queued(new Date(Date.now() + 50), ['sms']);
    const took = await elapsed(sleeping);
    expect(took).toBeGreaterThanOrEqual(40);
    expect(took).toBeLessThan(5_000);
    expect(fake.sent).toEqual([]);
  });

  it('a due time learnt while awake bounds the next sleep; a later one does not lengthen it', async () => {
    wakeup.dueAt(new Date(Date.now() + 30));
    expect(await elapsed(wakeup.sleep(60_000))).toBeLessThan(5_000);
    const sleeping = wakeup.sleep(50);
    wakeup.dueAt(new Date(Date.now() + 60_000));
    expect(await elapsed(sleeping)).toBeLessThan(5_000);
  });
});
