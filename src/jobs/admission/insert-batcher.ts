/** One row of a coalesced insert: a job with every column of its own (rows of several requests share a statement). */
export interface CoalescedRow {
  id: string;
  projectId: string;
  /** The payload's JSON text (serialised once, by the request that owns it). */
  payloadJson: string;
  priority: number;
  maxAttempts: number;
  templateId: string | null;
  topic: string | null;
  channel: string;
  subscriberId: string | null;
  recipient: string;
  scheduledAt: string;
  runAt: string | null;
  idempotencyKey: string | null;
  createdBy: string | null;
}

interface Waiting {
  rows: CoalescedRow[];
  resolve: (inserted: ReadonlySet<string>) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for single sends (issue 19): up to `inFlight` inserts run at once; requests that
 * arrive while they all run wait and go together in the next statement, one commit for all.
 * Nothing waits for a timer: at low load every request inserts at once, alone; under load the
 * batches grow with the queue. Each request gets the set of ids inserted by its statement and
 * finds its own rows in it. If a shared statement fails, each request's rows are tried on their
 * own, so one request's error (its project deleted under it) never fails another.
 */
export class InsertBatcher {
  private readonly waiting: Waiting[] = [];
  private running = 0;

  constructor(
    private readonly insert: (rows: CoalescedRow[]) => Promise<ReadonlySet<string>>,
    private readonly inFlight: number,
    private readonly maxRows: number,
  ) {}

  submit(rows: CoalescedRow[]): Promise<ReadonlySet<string>> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ rows, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.inFlight && this.waiting.length > 0) {
      const group: Waiting[] = [];
      let rows = 0;
      while (this.waiting.length > 0 && (group.length === 0 || rows + this.waiting[0].rows.length <= this.maxRows)) {
        const next = this.waiting.shift()!;
        rows += next.rows.length;
        group.push(next);
      }
      this.running++;
      void this.flush(group).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async flush(group: Waiting[]): Promise<void> {
    try {
      const inserted = await this.insert(group.length === 1 ? group[0].rows : group.flatMap((w) => w.rows));
      for (const w of group) w.resolve(inserted);
    } catch (err) {
      if (group.length === 1) return group[0].reject(err);
      await Promise.all(group.map((w) => this.insert(w.rows).then(w.resolve, w.reject)));
    }
  }
}
