/**
 * A one-shot latch: replies can wait on it mid-stream so a capture or a test decides when an
 * agent's turn may finish, instead of guessing how long a "slow" stream must last.
 */
export class Gate {
  private opened = false;
  private readonly waiting: Array<() => void> = [];

  /** Resolves once the gate has been opened; at once if it already is. */
  wait(): Promise<void> {
    if (this.opened) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  open(): void {
    this.opened = true;
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}
