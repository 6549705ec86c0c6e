import { Duplex } from 'node:stream';

/** Where the compositor's bytes go: a terminal stream, or any writable (tests). */
export interface TerminalOutput {
  write(data: string): unknown;
  columns?: number;
  rows?: number;
}

/**
 * The stream unblessed's Program writes to. It passes every write straight through to the real
 * output, synchronously, and counts the bytes. Program never sees the real stream: it would hook
 * the stream's 'resize' and re-render on its own, but the orchestrator decides when fux
 * re-renders (Compositor.resize, then render).
 */
export class OutputSink extends Duplex {
  readonly isTTY = true;
  columns: number;
  rows: number;
  bytesWritten = 0;
  private silenced = false;

  constructor(
    private readonly target: TerminalOutput,
    cols: number,
    rows: number,
  ) {
    super({ decodeStrings: false });
    this.columns = cols;
    this.rows = rows;
  }

  override _read(): void {}

  override _write(
    chunk: string | Buffer,
    _encoding: BufferEncoding,
    done: (error?: Error | null) => void,
  ): void {
    if (!this.silenced) {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      this.bytesWritten += Buffer.byteLength(text);
      this.target.write(text);
    }
    done();
  }

  /**
   * Nothing more reaches the terminal. unblessed's process 'exit' handler can restore the screen a
   * second time, after fux has left it and printed `[detached]`: its clear would wipe that line.
   */
  silence(): void {
    this.silenced = true;
  }
}
