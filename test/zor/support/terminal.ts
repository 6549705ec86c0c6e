import { Terminal } from '@xterm/headless';
import { Unicode11Addon } from '@xterm/addon-unicode11';

/** A headless terminal set up the way fux and the wrapper set theirs up (wide glyphs per Unicode 11). */
export function makeTerminal(cols: number, rows: number, scrollback = rows * 2): Terminal {
  const terminal = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
  terminal.loadAddon(new Unicode11Addon());
  terminal.unicode.activeVersion = '11';
  return terminal;
}

/** Resolves once xterm has parsed the data. */
export function feed(terminal: Terminal, data: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => terminal.write(data, resolve));
}
