import type { PtyExit } from '../../pty/pty';

/** What a holder says first on a connection (native/pane-holder.c, "A connection"). */
export interface HolderHeader {
  readonly key: string;
  readonly pid: number;
  /** Bytes of output that follow on the connection, read while no server held the pty. */
  readonly buffered: number;
  /** Older bytes that did not fit the holder's buffer. */
  readonly dropped: number;
  /** Set when the program has already exited (the exit line follows the buffered bytes as well). */
  readonly exit: PtyExit | undefined;
  readonly ptsName: string;
}

const HEADER = /^fux-holder 1 (\S+) (\d+) (\d+) (\d+) ([01]) (-?\d+) (\d+) (\S+) *\n?$/;

/** The header parsed, or what is wrong with it. */
export function parseHolderHeader(text: string): HolderHeader | string {
  const m = HEADER.exec(text);
  if (!m) return `not a fux pane holder's greeting (${JSON.stringify(text.slice(0, 40))})`;
  const [, key, pid, buffered, dropped, exited, code, signal, ptsName] = m;
  const exit =
    exited === '1'
      ? Number(signal) > 0
        ? { code: null, signal: Number(signal) }
        : { code: Number(code), signal: null }
      : undefined;
  return {
    key: key!,
    pid: Number(pid),
    buffered: Number(buffered),
    dropped: Number(dropped),
    exit,
    ptsName: ptsName!,
  };
}
