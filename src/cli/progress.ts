/**
 * A progress bar on stderr for long client work, drawn only when both stdout and stderr are
 * terminals: piped into a file or another program, the output stays clean and parseable.
 */
export class Progress {
  private readonly enabled: boolean;
  private done = 0;
  private lastDraw = 0;

  constructor(
    private readonly label: string,
    private readonly total: number,
    stream: NodeJS.WriteStream = process.stderr,
    private readonly out: NodeJS.WriteStream = stream,
  ) {
    this.enabled = Boolean(process.stdout.isTTY && stream.isTTY) && total > 1;
  }

  /** One more item done of `total`: the bar ends with `done/total`. */
  tick(by = 1): void {
    this.done += by;
    this.draw(`${this.done}/${this.total}`);
  }

  /**
   * Work measured in another unit than items (bytes of a file read): the bar ends with the
   * percentage and `note` (counts, a rate).
   */
  update(done: number, note: string): void {
    this.done = done;
    this.draw(`${Math.floor((Math.min(done, this.total) / this.total) * 100)}% ${note}`);
  }

  finish(): void {
    if (this.enabled) this.out.write('\n');
  }

  private draw(suffix: string): void {
    const now = Date.now();
    if (this.enabled && (now - this.lastDraw > 50 || this.done >= this.total)) {
      this.lastDraw = now;
      const width = 30;
      const filled = Math.round((Math.min(this.done, this.total) / this.total) * width);
      // \x1b[K clears what a longer previous suffix left on the line.
      this.out.write(`\r${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${suffix}\x1b[K`);
    }
  }
}
