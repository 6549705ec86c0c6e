import { Terminal } from '@xterm/headless';
import { Unicode11Addon } from '@xterm/addon-unicode11';

export interface TerminalCost {
  /** Growth of typed-array memory (xterm keeps each line's cells in a Uint32Array). */
  arrayBuffers: number;
  /** Growth of the JS heap (line objects and whatever garbage the writes left; an upper bound). */
  heapUsed: number;
}

function write(terminal: Terminal, data: string): Promise<void> {
  return new Promise((resolve) => terminal.write(data, resolve));
}

/**
 * What one pane's terminal costs, measured in this process: an @xterm/headless Terminal set up as
 * a fux pane sets up its own, fed `lines` lines of `width` characters. This is the server's
 * per-pane memory without the pty, the rpc or the rest of the server around it.
 */
export async function measureTerminal(
  cols: number,
  rows: number,
  scrollback: number,
  lines: number,
  width: number,
): Promise<TerminalCost> {
  const before = process.memoryUsage();
  const terminal = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
  terminal.loadAddon(new Unicode11Addon());
  terminal.unicode.activeVersion = '11';
  const batch = 500;
  for (let from = 1; from <= lines; from += batch) {
    let chunk = '';
    for (let i = from; i < Math.min(lines + 1, from + batch); i++)
      chunk += `${String(i).padStart(width, '0')}\r\n`;
    await write(terminal, chunk);
  }
  const after = process.memoryUsage();
  terminal.dispose();
  return {
    arrayBuffers: after.arrayBuffers - before.arrayBuffers,
    heapUsed: after.heapUsed - before.heapUsed,
  };
}
