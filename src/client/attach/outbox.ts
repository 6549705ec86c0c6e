import { FOCUSED } from './controller';

export type InputTarget = number | typeof FOCUSED;

export interface OutboxDeps {
  /** Send to the server; false when there is no session to send to (the bytes are dropped). */
  send(pane: InputTarget, data: string, binary: boolean): boolean;
  /** Text that went to the focused pane, for the local echo. */
  typed(data: string): void;
}

/**
 * Keys decoded from one read of the terminal, held until the read is done and then sent as one
 * message per run of the same pane and kind, in order: a fast typist's or a terminal's burst is
 * one chunk, and so one message.
 */
export class InputOutbox {
  private queue: Array<{ pane: InputTarget; data: string; binary: boolean }> = [];

  constructor(private readonly deps: OutboxDeps) {}

  add(pane: InputTarget, data: string, binary: boolean): void {
    const last = this.queue[this.queue.length - 1];
    if (last && last.pane === pane && last.binary === binary) last.data += data;
    else this.queue.push({ pane, data, binary });
  }

  flush(): void {
    const batch = this.queue;
    this.queue = [];
    for (const { pane, data, binary } of batch) {
      // Typing is predicted on the pane the client shows focused, once it is on its way.
      if (this.deps.send(pane, data, binary) && pane === FOCUSED && !binary) this.deps.typed(data);
    }
  }
}
