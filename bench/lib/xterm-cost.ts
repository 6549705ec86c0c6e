import { performance } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { Terminal } from '@xterm/headless';
import { Unicode11Addon } from '@xterm/addon-unicode11';

export interface TerminalCost {
  /** Growth of typed-array memory (xterm keeps each line's cells in a Uint32Array). */
  arrayBuffers: number;
  /** Growth of the JS heap (the line objects), garbage collected before each reading. */
  heapUsed: number;
}

export interface TerminalShape {
  cols: number;
  rows: number;
  scrollback: number;
}

/** An @xterm/headless Terminal set up as a fux pane sets up its own. */
function paneTerminal(shape: TerminalShape): Terminal {
  const terminal = new Terminal({ ...shape, allowProposedApi: true });
  terminal.loadAddon(new Unicode11Addon());
  terminal.unicode.activeVersion = '11';
  return terminal;
}

function write(terminal: Terminal, data: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => terminal.write(data, resolve));
}

/**
 * Parse `data` in this process, one write of `writeBytes` at a time (each awaited, as the pane's
 * pump does), after `warmUp` (parsed first, not timed); resolves with each write's ms. This is
 * xterm's share of a benchmark with no pty, rpc or server around it.
 */
export async function timeWrites(
  shape: TerminalShape,
  data: Uint8Array,
  writeBytes: number,
  warmUp?: Uint8Array,
): Promise<number[]> {
  const terminal = paneTerminal(shape);
  try {
    if (warmUp) await write(terminal, warmUp);
    const times: number[] = [];
    for (let at = 0; at < data.byteLength; at += writeBytes) {
      const start = performance.now();
      await write(terminal, data.subarray(at, at + writeBytes));
      times.push(performance.now() - start);
    }
    return times;
  } finally {
    terminal.dispose();
  }
}

/**
 * Collect garbage until it is gone, so a memory delta is the live growth only: terminals disposed
 * by an earlier benchmark in this process would otherwise be freed in the middle of the
 * measurement. One collection is not enough (freed typed-array memory is released later), so it
 * is repeated with a turn of the event loop between. `--expose-gc` can be turned on at run time;
 * a fresh context then sees `gc`.
 */
async function collectGarbage(): Promise<void> {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * What one pane's terminal costs in memory, measured in this process: a pane-like Terminal fed
 * `lines` lines of `width` characters. The server's per-pane memory without the pty, the rpc or
 * the rest of the server around it.
 */
export async function measureTerminal(
  shape: TerminalShape,
  lines: number,
  width: number,
): Promise<TerminalCost> {
  await collectGarbage();
  const before = process.memoryUsage();
  const terminal = paneTerminal(shape);
  const batch = 500;
  for (let from = 1; from <= lines; from += batch) {
    let chunk = '';
    for (let i = from; i < Math.min(lines + 1, from + batch); i++)
      chunk += `${String(i).padStart(width, '0')}\r\n`;
    await write(terminal, chunk);
  }
  await collectGarbage();
  const after = process.memoryUsage();
  terminal.dispose();
  return {
    arrayBuffers: after.arrayBuffers - before.arrayBuffers,
    heapUsed: after.heapUsed - before.heapUsed,
  };
}
