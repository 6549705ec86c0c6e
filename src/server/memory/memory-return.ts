import type { EventBus } from '../events';
import type { Logger } from '../log';
import { loadAllocatorTrim, type AllocatorTrim } from './allocator';

export interface MemoryReturnDeps {
  /** Parse time spent so far, in ms, only ever growing: how busy output has kept the server. */
  work(): number;
  /** Run `task` once after `ms` (an unref'd timer; tests step it by hand). */
  after(ms: number, task: () => void): void;
  /** Collect garbage and hand the freed pages back to the system. */
  release(): void;
}

export interface MemoryReturnSettings {
  /** How long parsing must have (nearly) stopped before memory is given back. */
  quietMs: number;
  /** Parse time within `quietMs` that still counts as quiet: a spinner's redraws, an echo. */
  quietWorkMs: number;
}

/**
 * 500 ms without a flood after panes closed: a return costs 10–50 ms of the event loop (a full
 * collection, then the trim), so it waits for a pause, and comes once per burst of closes.
 */
export const MEMORY_RETURN: MemoryReturnSettings = { quietMs: 500, quietWorkMs: 25 };

/** From the collection to the trim: time for V8's background sweep of dead ArrayBuffers. */
const SWEEP_WAIT_MS = 100;

/**
 * When to give memory back. A closed pane leaves its terminal and history behind as garbage (~1
 * MiB after a flood); V8 collects that only when it next needs room, and glibc keeps the freed
 * pages after that. So a server that flooded 40 panes and closed them sat at ~200 MiB resident
 * with 15 MiB of live heap (docs/benchmarks.md, B10). This asks for a collection and a trim once
 * the server goes quiet after panes closed: as soon as parsing has (nearly) stopped for `quietMs`.
 *
 * Not after a flood in panes that stay: what it leaves is mostly live (the history), and giving
 * the rest back made the next flood pay to take it again (B1: about 5 % in alternating runs).
 * Pure logic: the clock, the timer and the release are injected.
 */
export class MemoryReturn {
  private armed = false;

  constructor(
    private readonly deps: MemoryReturnDeps,
    private readonly settings: MemoryReturnSettings = MEMORY_RETURN,
  ) {}

  /** Much was just let go (a pane closed): give it back once the server is quiet. */
  freed(): void {
    if (this.armed) return;
    this.armed = true;
    this.waitForQuiet();
  }

  private waitForQuiet(): void {
    const before = this.deps.work();
    this.deps.after(this.settings.quietMs, () => {
      if (this.deps.work() - before > this.settings.quietWorkMs) {
        this.waitForQuiet();
        return;
      }
      this.armed = false;
      this.deps.release();
    });
  }
}

/**
 * The server's memory return: armed by the bus's `pane.closed`; it releases with a full collection
 * when node runs with `--expose-gc` (the server does: SERVER_NODE_OPTIONS) and the allocator trim
 * where it was built. Each return is one line of the server log.
 */
export function startMemoryReturn(bus: EventBus, work: () => number, log: Logger): void {
  const trim: AllocatorTrim | undefined = loadAllocatorTrim();
  const collect = (globalThis as { gc?: () => void }).gc;
  const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
  const returner = new MemoryReturn({
    work,
    after: (ms, task) => void setTimeout(task, ms).unref(),
    release: () => {
      const before = process.memoryUsage.rss();
      const start = performance.now();
      collect?.();
      const collected = performance.now() - start;
      // V8 frees the backing stores of dead ArrayBuffers (a closed pane's history and terminal
      // rows) on a background thread after the collection: trimmed at once, 40 closed panes still
      // held 20–60 MiB of them.
      setTimeout(() => {
        const trimStart = performance.now();
        trim?.();
        const ms = (collected + performance.now() - trimStart).toFixed(1);
        log.info(
          `memory given back: resident ${mib(before)} → ${mib(process.memoryUsage.rss())} MiB (${ms} ms)`,
        );
      }, SWEEP_WAIT_MS).unref();
    },
  });
  bus.listen((e) => {
    if (e.type === 'pane.closed') returner.freed();
  });
}
