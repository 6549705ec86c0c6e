import {
  MAX_WRITE_BYTES,
  MAX_WRITE_LINES,
  OutputPump,
  SCAN_BYTES,
  type ParserSink,
} from '../../src/server/pane/output-pump';
import { ParseScheduler } from '../../src/server/pane/parse-scheduler';
import { Turns } from './turns';

/** A parser stand-in that holds each write until the test says it is parsed. */
class HeldParser {
  readonly writes: Uint8Array[] = [];
  private readonly done: Array<() => void> = [];
  readonly sink: ParserSink = (bytes, parsed) => {
    this.writes.push(bytes);
    this.done.push(parsed);
  };
  finishOne(): void {
    this.done.shift()!();
  }
  get inFlight(): number {
    return this.done.length;
  }
}

function recordingSource(): { log: string[]; pause(): void; resume(): void } {
  const log: string[] = [];
  return { log, pause: () => log.push('pause'), resume: () => log.push('resume') };
}

const bytes = (n: number, fill = 0x61): Uint8Array => new Uint8Array(n).fill(fill);

/** Bytes up to which a pump's chunk is parsed at once rather than in a turn, in these tests. */
const SMALL = 16;

/** A scheduler whose turns the test steps, with a clock that never moves (each turn serves all). */
function steppedScheduler(): { turns: Turns; scheduler: ParseScheduler } {
  const turns = new Turns();
  const scheduler = new ParseScheduler({ turnMs: 4, smallBytes: SMALL }, () => 0, turns.schedule);
  return { turns, scheduler };
}

/** A pump over a held parser whose turns the test steps, with a source that records pause and resume. */
function heldPump(marks: { high: number; low: number }): {
  parser: HeldParser;
  turns: Turns;
  source: ReturnType<typeof recordingSource>;
  pump: OutputPump;
} {
  const parser = new HeldParser();
  const { turns, scheduler } = steppedScheduler();
  const source = recordingSource();
  const pump = new OutputPump(parser.sink, source, marks, () => {}, scheduler);
  return { parser, turns, source, pump };
}

/** Finish every write, stepping a turn after each so that the next batch goes out. */
function drain(parser: HeldParser, turns: Turns): void {
  while (parser.inFlight > 0) {
    parser.finishOne();
    turns.step();
  }
}

describe('the output pump', () => {
  test('writes the first chunk at once and batches what arrives while it is parsed', () => {
    const { parser, turns, pump } = heldPump({ high: 1e6, low: 1e5 });
    pump.push(bytes(10, 0x31));
    pump.push(bytes(20, 0x32));
    pump.push(bytes(30, 0x33));
    expect(parser.writes.map((w) => w.byteLength)).toEqual([10]);
    expect(pump.pending).toBe(60);
    parser.finishOne();
    // The next batch waits one turn of the event loop, so other I/O is served between batches.
    expect(parser.writes.map((w) => w.byteLength)).toEqual([10]);
    turns.step();
    expect(parser.writes.map((w) => w.byteLength)).toEqual([10, 50]);
    expect(Buffer.from(parser.writes[1]!).toString()).toBe('2'.repeat(20) + '3'.repeat(30));
    parser.finishOne();
    expect(pump.idle).toBe(true);
  });

  test('keeps each write within MAX_WRITE_BYTES unless a single chunk is larger', () => {
    const { parser, turns, pump } = heldPump({ high: 1e9, low: 1e8 });
    pump.push(bytes(1));
    for (let i = 0; i < 40; i++) pump.push(bytes(4096));
    pump.push(bytes(MAX_WRITE_BYTES * 2));
    drain(parser, turns);
    const sizes = parser.writes.map((w) => w.byteLength);
    const perWrite = MAX_WRITE_BYTES / 4096;
    expect(sizes).toEqual([
      1,
      ...Array<number>(Math.floor(40 / perWrite)).fill(perWrite * 4096),
      ...(40 % perWrite ? [(40 % perWrite) * 4096] : []),
      MAX_WRITE_BYTES * 2,
    ]);
    expect(sizes.reduce((a, b) => a + b)).toBe(1 + 40 * 4096 + MAX_WRITE_BYTES * 2);
  });

  test('pauses the source above the high mark and resumes it only below the low mark', () => {
    const { parser, turns, source, pump } = heldPump({ high: 100, low: 40 });
    pump.push(bytes(60));
    turns.step();
    pump.push(bytes(40));
    expect(source.log).toEqual([]); // 100 pending is not above the mark
    pump.push(bytes(1));
    expect(source.log).toEqual(['pause']);
    pump.push(bytes(50)); // already paused: no second pause
    parser.finishOne(); // 60 parsed, 91 pending, still above low
    expect(source.log).toEqual(['pause']);
    turns.step();
    parser.finishOne(); // the batch of 91 parsed
    expect(source.log).toEqual(['pause', 'resume']);
    expect(pump.idle).toBe(true);
  });

  test('reports each parsed write and copes with a parser that finishes synchronously', () => {
    let parsedWrites = 0;
    const writes: number[] = [];
    const source = recordingSource();
    const { turns, scheduler } = steppedScheduler();
    const pump = new OutputPump(
      (chunk, parsed) => {
        writes.push(chunk.byteLength);
        parsed();
      },
      source,
      { high: 40, low: 5 },
      () => parsedWrites++,
      scheduler,
    );
    pump.push(bytes(3));
    pump.push(bytes(30));
    expect(writes).toEqual([3]);
    turns.step();
    expect(writes).toEqual([3, 30]);
    expect(parsedWrites).toBe(2);
    expect(pump.idle).toBe(true);
    expect(source.log).toEqual([]); // never more than 40 pending at once
  });

  test('cuts a chunk of more than SCAN_BYTES after MAX_WRITE_LINES line feeds and writes the rest next', () => {
    const { parser, turns, pump } = heldPump({ high: 1e9, low: 1e8 });
    const yes = Buffer.from('y\r\n'.repeat(MAX_WRITE_LINES * 3 + 5));
    pump.push(new Uint8Array(1));
    pump.push(yes); // the pty's tail is read in 64 KiB blocks
    drain(parser, turns);
    const lineFeeds = parser.writes.map((w) => Buffer.from(w).toString('latin1').split('\n').length - 1);
    // The last 4101 lines (12 KiB) are within SCAN_BYTES: written whole, uncounted.
    expect(lineFeeds).toEqual([0, MAX_WRITE_LINES, MAX_WRITE_LINES, MAX_WRITE_LINES + 5]);
    expect(parser.writes[3]!.byteLength).toBeLessThanOrEqual(SCAN_BYTES);
    expect(Buffer.concat(parser.writes.slice(1))).toEqual(yes);
    expect(pump.idle).toBe(true);
  });

  test('a chunk arriving while a batch waits for its turn joins that batch', () => {
    const { parser, turns, pump } = heldPump({ high: 1e6, low: 1e5 });
    pump.push(bytes(1));
    pump.push(bytes(20));
    parser.finishOne();
    pump.push(bytes(30)); // nothing in flight, but the pump already waits for a turn
    expect(parser.writes.map((w) => w.byteLength)).toEqual([1]);
    expect(turns.waiting).toBe(1);
    turns.step();
    expect(parser.writes.map((w) => w.byteLength)).toEqual([1, 50]);
  });

  test('raising the marks while paused resumes the source at once', () => {
    const { source, pump } = heldPump({ high: 10, low: 5 });
    pump.push(bytes(20));
    expect(source.log).toEqual(['pause']);
    pump.setMarks({ high: 1000, low: 500 });
    expect(source.log).toEqual(['pause', 'resume']);
  });

  test('a chunk larger than a small read waits for a turn, unless the program was just sent input', () => {
    const { parser, turns, pump } = heldPump({ high: 1e6, low: 1e5 });
    pump.push(bytes(SMALL + 1));
    expect(parser.writes).toHaveLength(0);
    turns.step();
    expect(parser.writes).toHaveLength(1);
    parser.finishOne();
    pump.inputWritten();
    pump.push(bytes(4096)); // the echo of a paste, say: at once
    expect(parser.writes.map((w) => w.byteLength)).toEqual([SMALL + 1, 4096]);
    parser.finishOne();
    pump.push(bytes(4096)); // the input's priority was for one write
    expect(parser.writes).toHaveLength(2);
  });

  test('a disposed pump writes nothing more, even what was waiting for its turn', () => {
    const { parser, turns, pump } = heldPump({ high: 1e6, low: 1e5 });
    pump.push(bytes(100));
    pump.dispose();
    turns.step();
    pump.push(bytes(1));
    expect(parser.writes).toHaveLength(0);
  });
});
