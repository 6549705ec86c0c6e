import type { IDisposable, Terminal } from '@xterm/headless';

export type CursorShape = 'block' | 'underline' | 'bar';

/**
 * What xterm keeps of a program's terminal modes but does not expose: cursor visibility (DECTCEM),
 * the cursor's shape (DECSCUSR), SGR mouse encoding (DECSET 1006) and the kitty keyboard flags a
 * program pushed. An attached client needs them to show the cursor as the program asked and to
 * encode keys and mouse events the way the program reads them. The handlers only observe: each
 * returns false so xterm's own handling still runs.
 */
export class InputModes {
  cursorVisible = true;
  cursorShape: CursorShape = 'block';
  cursorBlink = false;
  mouseSgr = false;
  /** The kitty keyboard flag stack (`CSI > n u` pushes, `CSI < n u` pops); the top is in force. */
  private readonly kitty: number[] = [];
  private readonly handlers: IDisposable[];

  constructor(terminal: Terminal) {
    const parser = terminal.parser;
    this.handlers = [
      parser.registerCsiHandler({ prefix: '?', final: 'h' }, (params) => this.decset(params, true)),
      parser.registerCsiHandler({ prefix: '?', final: 'l' }, (params) => this.decset(params, false)),
      parser.registerCsiHandler({ intermediates: ' ', final: 'q' }, (params) => this.cursorStyle(params)),
      parser.registerCsiHandler({ prefix: '>', final: 'u' }, (params) => this.kittyPush(params)),
      parser.registerCsiHandler({ prefix: '<', final: 'u' }, (params) => this.kittyPop(params)),
      parser.registerCsiHandler({ prefix: '=', final: 'u' }, (params) => this.kittySet(params)),
      // RIS (ESC c) resets everything a program set.
      parser.registerEscHandler({ final: 'c' }, () => this.reset()),
    ];
  }

  get kittyFlags(): number {
    return this.kitty[this.kitty.length - 1] ?? 0;
  }

  dispose(): void {
    for (const h of this.handlers) h.dispose();
  }

  private decset(params: (number | number[])[], on: boolean): boolean {
    for (const p of params) {
      const mode = typeof p === 'number' ? p : p[0];
      if (mode === 25) this.cursorVisible = on;
      else if (mode === 1006) this.mouseSgr = on;
      else if (mode === 1049 && !on) this.kitty.length = 0; // leaving the alternate screen: kitty's rule
    }
    return false;
  }

  private cursorStyle(params: (number | number[])[]): boolean {
    const n = first(params, 0);
    // 0 and 1: blinking block (0 is "the default", which is a blinking block in xterm).
    const shapes: Record<number, CursorShape> = {
      0: 'block',
      1: 'block',
      2: 'block',
      3: 'underline',
      4: 'underline',
      5: 'bar',
      6: 'bar',
    };
    const shape = shapes[n];
    if (shape) {
      this.cursorShape = shape;
      this.cursorBlink = n === 0 ? false : n % 2 === 1;
    }
    return false;
  }

  private kittyPush(params: (number | number[])[]): boolean {
    // Kitty bounds the stack; a program that only pushes must not grow it without end.
    if (this.kitty.length >= 16) this.kitty.shift();
    this.kitty.push(first(params, 0));
    return false;
  }

  private kittyPop(params: (number | number[])[]): boolean {
    const n = Math.max(1, first(params, 1));
    this.kitty.length = Math.max(0, this.kitty.length - n);
    return false;
  }

  private kittySet(params: (number | number[])[]): boolean {
    const flags = first(params, 0);
    const mode = typeof params[1] === 'number' ? params[1] : 1;
    const top = this.kittyFlags;
    const next = mode === 2 ? top | flags : mode === 3 ? top & ~flags : flags;
    if (this.kitty.length === 0) this.kitty.push(next);
    else this.kitty[this.kitty.length - 1] = next;
    return false;
  }

  private reset(): boolean {
    this.cursorVisible = true;
    this.cursorShape = 'block';
    this.cursorBlink = false;
    this.mouseSgr = false;
    this.kitty.length = 0;
    return false;
  }
}

function first(params: (number | number[])[], fallback: number): number {
  const p = params[0];
  const n = typeof p === 'number' ? p : p?.[0];
  return n === undefined || n < 0 ? fallback : n;
}
