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

  tick(by = 1): void {
    this.done += by;
    const now = Date.now();
    if (this.enabled && (now - this.lastDraw > 50 || this.done >= this.total)) {
      this.lastDraw = now;
      const width = 30;
      const filled = Math.round((this.done / this.total) * width);
      this.out.write(`\r${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.done}/${this.total}`);
    }
  }

  finish(): void {
    if (this.enabled) this.out.write('\n');
  }
}
