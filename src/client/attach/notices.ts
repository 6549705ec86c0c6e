import type { NoticeSource } from './run';

/** A notice board: whoever knows about the link posts, the attach client shows the latest. */
export class Notices implements NoticeSource {
  private readonly listeners = new Set<(text: string | undefined) => void>();

  post(text: string | undefined): void {
    for (const l of this.listeners) l(text);
  }

  listen(show: (text: string | undefined) => void): () => void {
    this.listeners.add(show);
    return () => this.listeners.delete(show);
  }
}
