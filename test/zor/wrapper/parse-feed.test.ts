// The wrapper parses its child's output off the output path and skips plain text that the screen
// and its scrollback cannot keep (plain-run.ts). The screen must come out exactly as if every byte
// had been parsed: these tests compare, cell by cell, against a terminal fed the whole stream.
import type { Terminal } from '@xterm/headless';
import { EscapeBoundary } from '../../../src/zor/wrapper/escape-boundary';
import { ParseFeed, scrollbackFor } from '../../../src/zor/wrapper/parse-feed';
import { lineFeedsToKeep, trimPlainRun } from '../../../src/zor/wrapper/plain-run';
import { snapshot, titledTerminal } from '../support/snapshot';
import { feed } from '../support/terminal';
import { until } from '../../helpers/wait-for';

const COLS = 40;
const ROWS = 10;

/** A terminal as the wrapper sets one up, with its title kept for the snapshot. */
function terminal(rows = ROWS): Terminal {
  return titledTerminal(COLS, rows, scrollbackFor(rows));
}

/** Feeds `chunks` through a ParseFeed (as the wrapper does) and through a plain terminal. */
async function both(chunks: readonly Buffer[]): Promise<{ skipped: string; whole: string; parsed: number }> {
  const skipping = terminal();
  const reference = terminal();
  const parseFeed = new ParseFeed(skipping, () => {});
  const boundary = new EscapeBoundary();
  for (const chunk of chunks) parseFeed.push(chunk, boundary.feed(chunk));
  await feed(reference, Buffer.concat(chunks));
  await until(() => parseFeed.unparsed === 0, 10_000, 'the feed to parse everything');
  const result = { skipped: snapshot(skipping), whole: snapshot(reference), parsed: parseFeed.parsed };
  parseFeed.dispose();
  skipping.dispose();
  reference.dispose();
  return result;
}

/** `text` cut into chunks of pseudo-random sizes (1–600 bytes), as pty reads would deliver it. */
function chunked(text: string | Buffer, seed = 7): Buffer[] {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const chunks: Buffer[] = [];
  let state = seed;
  for (let offset = 0; offset < bytes.length;) {
    state = (state * 1103515245 + 12345) >>> 0;
    const size = 1 + (state % 600);
    chunks.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return chunks;
}

function lines(count: number, from = 1, ending = '\r\n'): string {
  let text = '';
  for (let line = from; line < from + count; line++) text += `${line}${ending}`;
  return text;
}

describe('trimming a plain run', () => {
  test('keeps the run from the last CR that still has enough line feeds after it', () => {
    const run = Buffer.from('aa\r\nbb\r\ncc\r\ndd');
    expect(trimPlainRun(run, 2).toString()).toBe('\r\ncc\r\ndd');
    expect(trimPlainRun(run, 1).toString()).toBe('\r\ndd');
  });

  test('keeps the whole run when it has too few line feeds or no CR before them', () => {
    expect(trimPlainRun(Buffer.from('a\r\nb\r\nc'), 3).toString()).toBe('a\r\nb\r\nc');
    expect(trimPlainRun(Buffer.from('a\nb\nc\nd\n'), 2).toString()).toBe('a\nb\nc\nd\n');
  });

  test('needs more line feeds than the screen and its scrollback hold, counting a cursor at the top', () => {
    expect(lineFeedsToKeep(50, 100)).toBe(199);
  });
});

describe('the wrapper parse feed', () => {
  test('ends with the same screen and scrollback after a long plain flood, parsing a fraction of it', async () => {
    const stream = lines(5000);
    const result = await both(chunked(stream));
    expect(result.skipped).toBe(result.whole);
    expect(result.parsed).toBeLessThan(Buffer.byteLength(stream) / 2);
  });

  test('keeps what came before a flood that is too short to push it out', async () => {
    const result = await both(chunked(`\x1b[31mred title line\x1b[0m\r\n${lines(12)}`));
    expect(result.skipped).toBe(result.whole);
  });

  test('is exact with bare line feeds, long wrapping lines and a cursor left mid-line', async () => {
    const long = 'x'.repeat(COLS * 3 + 7);
    const stream = `${lines(300, 1, '\n')}${long}\r\n${lines(300, 1, '\r\n')}${long}\r\n${lines(200)}tail`;
    const result = await both(chunked(stream));
    expect(result.skipped).toBe(result.whole);
  });

  test('does not cut while a scroll region is set, where a line below it is never scrolled away', async () => {
    // With the cursor below the region a line feed does not scroll, so every line is written over
    // the last: the row keeps the tail of the long first line.
    const stream = `top line\r\n\x1b[3;8r\x1b[10;1H${'long line '.repeat(3)}\r\n${'ab\r\n'.repeat(2000)}`;
    for (const chunks of [[Buffer.from(stream)], chunked(stream)]) {
      const result = await both(chunks);
      expect(result.skipped).toBe(result.whole);
    }
  });

  test('is exact across colours, the alternate screen, titles and insert mode mixed with floods', async () => {
    const stream =
      `${lines(500)}\x1b[1;32m${lines(400)}\x1b]0;a title\x07\x1b[?1049h\x1b[H${lines(300)}` +
      `\x1b[4h${lines(300)}\x1b[4l\x1b[?1049l\x1b[0m${lines(1000)}\x1b[5;5Hmid${lines(3)}`;
    for (const seed of [1, 2, 3]) {
      const result = await both(chunked(stream, seed));
      expect(result.skipped).toBe(result.whole);
    }
  });

  test('does not cut after a C1 control, which xterm may read as the start of a string', async () => {
    // U+009D is OSC: xterm takes what follows as the title until BEL, so none of it is plain text.
    const stream = Buffer.concat([
      Buffer.from(lines(20)),
      Buffer.from([0xc2, 0x9d]),
      Buffer.from(`0;${lines(400)}\x07done`),
    ]);
    const result = await both(chunked(stream));
    expect(result.skipped).toBe(result.whole);
  });

  test('applies a resize after the write in progress, so a cut made for the old size stays exact', async () => {
    const skipping = terminal();
    const reference = terminal();
    const parseFeed = new ParseFeed(skipping, () => {});
    const boundary = new EscapeBoundary();
    const before = Buffer.from(lines(3000));
    const after = Buffer.from(lines(40, 5000));
    parseFeed.push(before, boundary.feed(before));
    parseFeed.resize(COLS, ROWS * 3);
    parseFeed.push(after, boundary.feed(after));
    await feed(reference, before);
    reference.resize(COLS, ROWS * 3);
    reference.options.scrollback = scrollbackFor(ROWS * 3);
    await feed(reference, after);
    await until(() => parseFeed.unparsed === 0, 10_000, 'the feed to parse everything');
    expect(snapshot(skipping)).toBe(snapshot(reference));
    parseFeed.dispose();
    skipping.dispose();
    reference.dispose();
  });
});
