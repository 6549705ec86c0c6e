import type { Overlay } from './render/widgets';

/** A panel the user opened (help, the workspace picker): the keys go to it while it shows. */
export type Panel = Extract<Overlay, { kind: 'help' } | { kind: 'picker' }>;

/** Runs `fn` after `ms`; the returned function cancels it. */
export type Schedule = (fn: () => void, ms: number) => () => void;

/** How long a failed call's message shows: long enough to read one line, short enough not to hide the glyphs for good. */
export const MESSAGE_MS = 4000;

const timers: Schedule = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  // A message must not keep a client that is leaving alive.
  timer.unref();
  return () => clearTimeout(timer);
};

/**
 * The one owner of what shows over the panes. Three sources post to it: the panel the user
 * opened, the link's state ("reconnecting…", a stall) and the last failed call. It shows the most
 * important that is up: a panel (the user asked for it), else the link notice, else the error.
 * The link notice stays until its source clears it; an error fades after MESSAGE_MS, or goes
 * when anything else changes.
 */
export class Overlays {
  private panel: Panel | undefined;
  private link: string | undefined;
  private error: string | undefined;
  private shown: Overlay | undefined;
  private cancelFade: (() => void) | undefined;

  constructor(
    private readonly show: (overlay: Overlay | undefined) => void,
    private readonly schedule: Schedule = timers,
  ) {}

  setPanel(panel: Panel | undefined): void {
    this.panel = panel;
    this.clearError();
    this.update();
  }

  setLinkNotice(text: string | undefined): void {
    this.link = text;
    this.clearError();
    this.update();
  }

  failed(message: string): void {
    this.clearError();
    this.error = message;
    this.cancelFade = this.schedule(() => {
      this.cancelFade = undefined;
      this.error = undefined;
      this.update();
    }, MESSAGE_MS);
    this.update();
  }

  /** Stop the fade timer (the client is leaving). */
  stop(): void {
    this.clearError();
  }

  private clearError(): void {
    this.cancelFade?.();
    this.cancelFade = undefined;
    this.error = undefined;
  }

  private update(): void {
    const message = this.link ?? this.error;
    const next: Overlay | undefined =
      this.panel ?? (message === undefined ? undefined : { kind: 'message', text: message });
    if (next === undefined && this.shown === undefined) return;
    this.shown = next;
    this.show(next);
  }
}
