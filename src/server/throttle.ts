/**
 * Rate-caps `pane.output` nudges to one per pane per interval. The first output after a quiet spell
 * fires at once (so an echo is seen without delay); output during the interval is folded into one
 * trailing nudge at its end, so the last change is never missed.
 */
export class OutputThrottle {
  private readonly last = new Map<string, number>();
  private readonly pending = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly intervalMs: number,
    private readonly fire: (workspace: string, id: number) => void,
    private readonly now: () => number = Date.now,
  ) {}

  poke(workspace: string, id: number): void {
    const key = `${workspace}\0${id}`;
    if (this.pending.has(key)) return;
    const wait = (this.last.get(key) ?? -Infinity) + this.intervalMs - this.now();
    if (wait <= 0) {
      this.last.set(key, this.now());
      this.fire(workspace, id);
      return;
    }
    const timer = setTimeout(() => {
      this.pending.delete(key);
      this.last.set(key, this.now());
      this.fire(workspace, id);
    }, wait);
    timer.unref();
    this.pending.set(key, timer);
  }

  forget(workspace: string, id: number): void {
    const key = `${workspace}\0${id}`;
    clearTimeout(this.pending.get(key));
    this.pending.delete(key);
    this.last.delete(key);
  }
}
