/**
 * When the attach client paints. The server paces frames; the client paints once per turn of the
 * event loop, after every frame and key that arrived in it (setImmediate runs once the turn's I/O
 * callbacks are done), so a burst costs one paint and a lone echo paints at once.
 */
export class PaintScheduler {
  private queued = false;
  private stopped = false;

  constructor(private readonly paint: () => void) {}

  request(): void {
    if (this.queued || this.stopped) return;
    this.queued = true;
    setImmediate(() => {
      this.queued = false;
      if (!this.stopped) this.paint();
    });
  }

  stop(): void {
    this.stopped = true;
  }
}
