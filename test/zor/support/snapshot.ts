import type { Terminal } from '@xterm/headless';
import { makeTerminal } from './terminal';

const titles = new WeakMap<Terminal, string>();

/** A terminal set up as the wrapper's (makeTerminal) that remembers its title, for `snapshot`. */
export function titledTerminal(cols: number, rows: number, scrollback: number): Terminal {
  const made = makeTerminal(cols, rows, scrollback);
  made.onTitleChange((title) => titles.set(made, title));
  return made;
}

/** Everything a later reader of the terminal could see: title, every line with its wrap flag, the cursor, the buffer in use. */
export function snapshot(terminal: Terminal): string {
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y)!;
    lines.push(`${line.isWrapped ? '+' : ' '}${line.translateToString(false)}`);
  }
  const state = `${buffer.type} cursor ${buffer.cursorX},${buffer.cursorY} base ${buffer.baseY}`;
  return [`title ${JSON.stringify(titles.get(terminal) ?? '')}`, state, ...lines].join('\n');
}
