// The native relay (native/zor-relay.c) hands zor's parser a copy of the child's output that leaves
// out the start of long plain runs, which the parser would scroll away unseen. The cut must leave
// the parser's terminal exactly as the whole output would: these tests run the relay on a child
// printing a stream and compare a terminal fed the copy with one fed what reached stdout, cell by
// cell, and check where the relay must not cut (a scroll region, after a C1 control).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { parseFixture } from '../../../src/zor/fixture/fixture';
import { XtermScreenView } from '../../../src/zor/screen/xterm-screen-view';
import { scrollbackFor } from '../../../src/zor/wrapper/parse-feed';
import { until } from '../../helpers/wait-for';
import { REPO } from '../support/paths';
import { snapshot, titledTerminal } from '../support/snapshot';
import { feed, makeTerminal } from '../support/terminal';
import { zorScript } from '../support/zor-cli';
import { killRunning, runInPty } from '../support/zor-pty';

const RELAY = join(REPO, 'native', 'build', 'zor-relay');
const COLS = 40;
const ROWS = 10;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'zor-relay-cut-'));
});
afterEach(() => {
  killRunning();
  rmSync(dir, { recursive: true, force: true });
});

function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve) => stream.once('end', () => resolve(Buffer.concat(chunks))));
}

/** Runs the relay on a child that prints `stream` verbatim; returns stdout, the copy and the bytes it reports cut. */
async function relay(stream: string | Buffer): Promise<{ out: Buffer; copy: Buffer; cut: number }> {
  const file = join(dir, 'stream');
  writeFileSync(file, stream);
  const child = spawn(
    RELAY,
    ['-s', String(ROWS), String(COLS), '--', 'sh', '-c', 'stty -opost && exec cat "$1"', 'sh', file],
    { stdio: ['pipe', 'pipe', 'inherit', 'pipe', 'pipe', 'ignore'] },
  );
  const [control, out, , copy, status] = child.stdio as [
    NodeJS.WritableStream,
    Readable,
    null,
    Readable,
    Readable,
  ];
  const outBytes = collect(out);
  const copyBytes = collect(copy);
  let lines = '';
  status.on('data', (chunk: Buffer) => {
    lines += chunk.toString('latin1');
    // The relay ends once it has reported the exit and zor (here the test) closes the control pipe.
    if (lines.includes('exit ')) control.end();
  });
  await new Promise((resolve) => child.once('close', resolve));
  expect(lines).toMatch(/^exit 0 0$/m);
  return { out: await outBytes, copy: await copyBytes, cut: Number(/^cut (\d+)$/m.exec(lines)![1]) };
}

/** The screens of a terminal fed the whole output and one fed the copy, as the wrapper sets one up. */
async function screens(out: Buffer, copy: Buffer): Promise<{ whole: string; copied: string }> {
  const whole = titledTerminal(COLS, ROWS, scrollbackFor(ROWS));
  const copied = titledTerminal(COLS, ROWS, scrollbackFor(ROWS));
  await feed(whole, out);
  await feed(copied, copy);
  const result = { whole: snapshot(whole), copied: snapshot(copied) };
  whole.dispose();
  copied.dispose();
  return result;
}

function lines(count: number, from = 1): string {
  let text = '';
  for (let line = from; line < from + count; line++) text += `${line}\r\n`;
  return text;
}

const FLOOD = lines(20_000);

(existsSync(RELAY) ? describe : describe.skip)('the relay’s copy for the parser', () => {
  it.each([
    ['a plain flood', `${FLOOD}tail`],
    ['a flood after the scroll region is reset', `\x1b[2;5r\x1b[r${FLOOD}`],
    ['a flood after a region reaching the bottom row', `\x1b[1;${ROWS}r${FLOOD}`],
    ['a flood after a region set on the alternate screen only', `\x1b[?1049h\x1b[2;5r\x1b[?1049l${FLOOD}`],
    ['a flood after a reset (RIS)', `\x1b[2;5r\x1bc${FLOOD}`],
    [
      'floods mixed with colours, the alternate screen, titles and insert mode',
      `${lines(500)}\x1b[1;32m${FLOOD}\x1b]0;a title\x07\x1b[?1049h\x1b[H${lines(3000)}` +
        `\x1b[4h${lines(300)}\x1b[4l\x1b[?1049l\x1b[0m${FLOOD}\x1b[5;5Hmid${lines(3)}`,
    ],
  ])('leaves out the start of %s, and the screen comes out the same', async (_, stream) => {
    const { out, copy, cut } = await relay(stream);
    expect(out.toString('latin1')).toBe(stream);
    expect(cut).toBeGreaterThan(stream.length / 2);
    expect(copy.length).toBe(out.length - cut);
    const { whole, copied } = await screens(out, copy);
    expect(copied).toBe(whole);
  });

  it.each([
    ['inside a scroll region', `top line\r\n\x1b[3;8r\x1b[10;1H${'long line '.repeat(3)}\r\n${FLOOD}`],
    ['inside a region that stops short of the bottom row', `\x1b[1;${ROWS - 1}r${FLOOD}`],
    [
      'on the normal screen when only the alternate one reset its region',
      `\x1b[2;5r\x1b[?1049h\x1b[r\x1b[?1049l${FLOOD}`,
    ],
    ['after a buffer switch it cannot follow', `\x1b[?1049:1h\x1b[2;5r\x1b[?1049l${FLOOD}`],
    ['after a C1 control', Buffer.concat([Buffer.from([0xc2, 0x9d]), Buffer.from(`0;${FLOOD}\x07done`)])],
  ])('copies every byte of a flood %s', async (_, stream) => {
    const { out, copy, cut } = await relay(stream);
    expect(cut).toBe(0);
    expect(copy.equals(out)).toBe(true);
    const { whole, copied } = await screens(out, copy);
    expect(copied).toBe(whole);
  });
});

(existsSync(RELAY) ? describe : describe.skip)('a flood under zor', () => {
  it('leaves the detection window as the whole output would, with most of the flood left out', async () => {
    const log = join(dir, 'zor.log');
    const zor = `'${process.execPath}' '${await zorScript()}' zor --debug --title never --no-osc`;
    const inner = `echo "PID=$ZOR_PID"; seq 1 200000; printf '\\033[1mend of the flood\\033[0m\\n'; read _`;
    const run = await runInPty(['sh', '-c', `${zor} -- sh -c '${inner.replace(/'/g, `'\\''`)}' 2>'${log}'`], {
      bare: true,
      env: { TMPDIR: dir, ZOR_RELAY: RELAY },
    });
    await run.waitForText(/PID=\d+/);
    const pid = Number(/PID=(\d+)/.exec(run.text())![1]);
    await run.waitForText('end of the flood');
    // A dump shows what zor's parser has seen so far: ask again until it has seen the end.
    let dumps = 0;
    const lines = await until(
      () => {
        const dumped = readdirSync(dir).filter((name) => /^zor-\d+-\d+\.txt$/.test(name));
        const latest = dumped.find((name) => name.endsWith(`-${dumps}.txt`));
        if (dumped.length === dumps) {
          const fixture =
            latest === undefined ? undefined : parseFixture(readFileSync(join(dir, latest), 'utf8'), latest);
          if (fixture?.lines.includes('end of the flood')) return fixture.lines;
          dumps++;
          process.kill(pid, 'SIGUSR1');
        }
        return undefined;
      },
      20_000,
      'a dump with the end of the flood',
    );
    const reference = makeTerminal(100, 30, scrollbackFor(30));
    await feed(reference, run.output());
    const view = new XtermScreenView(reference);
    expect(lines).toEqual(view.lines());
    view.dispose();
    reference.dispose();

    run.write('\n');
    expect((await run.exited).exitCode).toBe(0);
    const leftOut = Number(
      /^zor: the relay left out (\d+) output bytes$/m.exec(readFileSync(log, 'utf8'))![1],
    );
    expect(leftOut).toBeGreaterThan(run.output().length / 2);
  });
});
