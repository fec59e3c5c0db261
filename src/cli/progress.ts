/**
 * Progress for long work: a single rewritten line on a TTY, nothing otherwise (CI logs stay clean).
 * The one-line summary at the end is printed by the command, TTY or not.
 */
export class Progress {
  private done = 0;
  private total = 0;
  private failed = 0;
  private lastDraw = 0;
  /** Whether anything is drawn: on a TTY, outside CI. */
  readonly enabled: boolean;

  constructor(
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {
    this.enabled = !!stream.isTTY && process.env.CI !== 'true';
  }

  plan(n: number): void {
    this.total += n;
    this.draw();
  }

  tick(failed = false): void {
    this.done++;
    if (failed) this.failed++;
    this.draw();
  }

  private draw(force = false): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const pct = this.total ? Math.floor((this.done / this.total) * 100) : 0;
    const failed = this.failed ? `, ${this.failed} failed` : '';
    this.stream.write(`\r\x1b[2K${this.label}: ${this.done}/${this.total} (${pct}%)${failed}`);
  }

  finish(): void {
    if (this.enabled) this.stream.write('\r\x1b[2K');
  }
}
