/**
 * When the attach client paints. The server paces frames; the client paints once the read that
 * brought a frame or a key has been handled (a microtask runs when that I/O callback returns), so
 * the frames of one chunk cost one paint and an echo is on the screen before the event loop turns
 * again. A turn's later reads paint again, but the server sends at most ~60 frames a second.
 */
export class PaintScheduler {
  private queued = false;
  private stopped = false;

  constructor(private readonly paint: () => void) {}

  request(): void {
    if (this.queued || this.stopped) return;
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      if (!this.stopped) this.paint();
    });
  }

  stop(): void {
    this.stopped = true;
  }
}
