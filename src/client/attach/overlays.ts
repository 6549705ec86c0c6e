import type { Overlay } from './render/widgets';

/** A panel the user opened (help, the workspace picker): the keys go to it while it shows. */
export type Panel = Extract<Overlay, { kind: 'help' } | { kind: 'picker' }>;

/**
 * The one owner of what shows over the panes. Three sources post to it: the panel the user
 * opened, the link's state ("reconnecting…", a stall) and the last failed call. It shows the most
 * important that is up: a panel (the user asked for it), else the link notice, else the error;
 * an error stays until anything else changes, as a message did when the last post won.
 */
export class Overlays {
  private panel: Panel | undefined;
  private link: string | undefined;
  private error: string | undefined;
  private shown: Overlay | undefined;

  constructor(private readonly show: (overlay: Overlay | undefined) => void) {}

  setPanel(panel: Panel | undefined): void {
    this.panel = panel;
    this.error = undefined;
    this.update();
  }

  setLinkNotice(text: string | undefined): void {
    this.link = text;
    this.error = undefined;
    this.update();
  }

  failed(message: string): void {
    this.error = message;
    this.update();
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
