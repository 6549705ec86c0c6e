/**
 * What the attach client does with an exception of its own (a bug in drawing, in a key's
 * handling, in an event handler): the session goes on. The error is logged with its stack,
 * shown as one line on the status line, and the screen is drawn again from scratch, since the
 * failed step may have left it half done.
 */
export interface FaultDeps {
  log(text: string): void;
  show(line: string): void;
  repaint(): void;
}

export class Faults {
  /** The last fault reported; the same one again is counted, not shown again (see caught). */
  private last = '';
  private repeats = 0;
  private stopped = false;

  constructor(private readonly deps: FaultDeps) {}

  /** `fn` with its exceptions caught and reported as `where`. */
  guard<A extends unknown[]>(where: string, fn: (...args: A) => void): (...args: A) => void {
    return (...args: A) => {
      try {
        fn(...args);
      } catch (err) {
        this.caught(where, err);
      }
    };
  }

  /**
   * Report a fault. The same fault again in a row is only counted: showing it and repainting
   * are what a failing draw would fail at again, and each would ask for the next.
   */
  caught(where: string, err: unknown): void {
    if (this.stopped) return;
    const message = err instanceof Error ? err.message : String(err);
    const key = `${where}: ${message}`;
    if (key === this.last) {
      this.repeats++;
      return;
    }
    if (this.repeats > 0) this.deps.log(`(the fault before this one happened ${this.repeats} more times)`);
    this.last = key;
    this.repeats = 0;
    this.deps.log(`${where}: ${err instanceof Error ? (err.stack ?? message) : message}`);
    this.deps.show(`${where} failed: ${message}`);
    this.deps.repaint();
  }

  /**
   * The client has left: what fails from now on is its own leaving (a call it had made, cut
   * short by the closed connection), not a fault.
   */
  stop(): void {
    this.stopped = true;
  }
}
