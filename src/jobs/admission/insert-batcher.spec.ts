import { type CoalescedRow, InsertBatcher } from './insert-batcher.js';

const row = (id: string, projectId = 'p'): CoalescedRow => ({
  id,
  projectId,
  payloadJson: '{}',
  priority: 50,
  maxAttempts: 5,
  templateId: null,
  topic: null,
  channel: 'email',
  subscriberId: null,
  recipient: 'a@example.com',
  scheduledAt: '2026-12-01T00:00:00.000Z',
  runAt: null,
  idempotencyKey: null,
  createdBy: null,
});

/** An insert that answers when told to, recording each statement's rows. */
function fakeInsert(failWhen: (rows: CoalescedRow[]) => boolean = () => false) {
  const statements: string[][] = [];
  const pending: (() => void)[] = [];
  const insert = (rows: CoalescedRow[]) =>
    new Promise<ReadonlySet<string>>((resolve, reject) => {
      statements.push(rows.map((r) => r.id));
      pending.push(() =>
        failWhen(rows) ? reject(new Error('insert failed')) : resolve(new Set(rows.map((r) => r.id))),
      );
    });
  const answerAll = async () => {
    while (pending.length) {
      pending.shift()!();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { insert, statements, answerAll };
}

describe('InsertBatcher', () => {
  it('inserts at once when nothing is in flight, and groups what arrives meanwhile into one statement', async () => {
    const fake = fakeInsert();
    const batcher = new InsertBatcher(fake.insert, 1, 100);
    const first = batcher.submit([row('a')]);
    const rest = [batcher.submit([row('b')]), batcher.submit([row('c'), row('d')])];
    expect(fake.statements).toEqual([['a']]);
    await fake.answerAll();
    expect(fake.statements).toEqual([['a'], ['b', 'c', 'd']]);
    expect([...(await first)]).toEqual(['a']);
    for (const r of await Promise.all(rest)) expect([...r]).toEqual(['b', 'c', 'd']);
  });

  it('runs up to inFlight statements at once and caps the rows of one', async () => {
    const fake = fakeInsert();
    const batcher = new InsertBatcher(fake.insert, 2, 3);
    const all = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id) => batcher.submit([row(id)]));
    expect(fake.statements).toEqual([['a'], ['b']]);
    await fake.answerAll();
    await Promise.all(all);
    expect(fake.statements).toEqual([['a'], ['b'], ['c', 'd', 'e'], ['f', 'g']]);
  });

  it("fails only the request whose rows break a shared statement: the others' rows are inserted on their own", async () => {
    const fake = fakeInsert((rows) => rows.some((r) => r.projectId === 'deleted'));
    const batcher = new InsertBatcher(fake.insert, 1, 100);
    const first = batcher.submit([row('a')]);
    const good = batcher.submit([row('b')]);
    const bad = batcher.submit([row('c', 'deleted')]);
    const settled = Promise.allSettled([first, good, bad]);
    await fake.answerAll();
    const [a, b, c] = await settled;
    expect(a.status).toBe('fulfilled');
    expect(b).toEqual({ status: 'fulfilled', value: new Set(['b']) });
    expect(c).toMatchObject({ status: 'rejected', reason: new Error('insert failed') });
    expect(fake.statements).toEqual([['a'], ['b', 'c'], ['b'], ['c']]);
  });
});
