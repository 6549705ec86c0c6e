import { EventEmitter } from 'node:events';

/** Event name → the arguments its listeners receive. */
export type EventSignatures<Events> = { [K in keyof Events]: unknown[] };

/**
 * A thin typed face over Node's EventEmitter: listeners are checked against the event's arguments,
 * and only the owner (a subclass) can emit.
 */
export class TypedEmitter<Events extends EventSignatures<Events>> {
  private readonly emitter = new EventEmitter();

  on<K extends keyof Events & string>(event: K, listener: (...args: Events[K]) => void): this {
    this.emitter.on(event, listener as (...args: unknown[]) => void);
    return this;
  }

  once<K extends keyof Events & string>(event: K, listener: (...args: Events[K]) => void): this {
    this.emitter.once(event, listener as (...args: unknown[]) => void);
    return this;
  }

  off<K extends keyof Events & string>(event: K, listener: (...args: Events[K]) => void): this {
    this.emitter.off(event, listener as (...args: unknown[]) => void);
    return this;
  }

  protected emit<K extends keyof Events & string>(event: K, ...args: Events[K]): void {
    this.emitter.emit(event, ...args);
  }

  protected removeAllListeners(): void {
    this.emitter.removeAllListeners();
  }
}
