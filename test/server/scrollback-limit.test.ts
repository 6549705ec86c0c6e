// The largest scrollback the config allows (issue 32): enforced at the config, kept line for line
// by a pane that floods past it, shown by `fux capture --scrollback`, and given back to the system
// when the pane closes (docs/benchmarks.md, SCROLLBACK, has the figures against tmux).
import * as fs from 'node:fs';
import * as path from 'node:path';
const MAX_SCROLLBACK = 1_000_000;
import { FuxHome, until } from '../helpers/home';

const MIB = 1024 * 1024;
const GIVEN_BACK = /memory given back: resident ([\d.]+) → ([\d.]+) MiB/g;

let home: FuxHome;
beforeEach(() => {
  home = new FuxHome();
});
afterEach(() => home.close());

function writeConfig(text: string): string {
  const file = path.join(home.env.XDG_CONFIG_HOME, 'fux', 'config.toml');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

const serverLog = (): string =>
  fs.readFileSync(path.join(home.env.XDG_STATE_HOME, 'fux', 'server.log'), 'utf8');

/** The server's resident set, from /proc. */
function resident(): number {
  const status = fs.readFileSync(`/proc/${home.serverPid()!}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

/**
 * 5 200 x's from one REP, which could scroll more rows than a compact pane's xterm keeps, make the
 * pane flood at once (xterm's limit raised), however fast archiving is; then `after`, then a marker.
 */
const floodThen = (after: string): string[] => [
  'sh',
  '-c',
  `printf 'x\\033[5199b\\n'; ${after}; echo filled; exec cat`,
];

test('a scrollback over the maximum is refused, naming the file, the line and the maximum', () => {
  const file = writeConfig(`scrollback = ${MAX_SCROLLBACK + 1}\n`);
  const r = home.cli(['list']);
  expect(r.code).toBe(0);
  expect(r.stderr).toBe(
    `fux: config: ${file}:1: scrollback: must be at most ${MAX_SCROLLBACK}\n` +
      'fux: config: using the defaults\n',
  );
});

test('a pane keeps exactly its configured scrollback of a flood past it, and capture --scrollback shows it', async () => {
  writeConfig('scrollback = 15000\n');
  home.cli(['list']);
  const fux = await home.client();
  await fux.workspace.new.mutate({ name: 'sb', cols: 80, rows: 24 });
  const { id } = await fux.new.mutate({ workspace: 'sb', argv: floodThen('seq 1 20000'), cwd: home.dir });
  await until(
    async () => (await fux.capture.query({ workspace: 'sb', id })).text.includes('filled'),
    60_000,
    'the pane to print its flood',
  );
  const captured = (lines: number): string[] => {
    const r = home.cli(['capture', String(id), '-w', 'sb', '--scrollback', String(lines)]);
    expect(r.stderr).toBe('');
    return r.stdout.trimEnd().split('\n');
  };
  // 15 000 lines of history (the x's are older), then the screen: up to 20000, and the marker
  // (the cursor's empty row after it is trimmed with the output's end).
  const numbers = Array.from({ length: 20_000 - 4_979 + 1 }, (_, i) => String(4_979 + i));
  expect(captured(MAX_SCROLLBACK)).toEqual([...numbers, 'filled']);
  expect(captured(100)).toEqual([...numbers.slice(-(100 + 22)), 'filled']);
}, 90_000);

test('closing a pane that kept a full scrollback gives its memory back to the system', async () => {
  writeConfig(`scrollback = ${MAX_SCROLLBACK}\n`);
  home.cli(['list']); // the server as the CLI starts it, with its node options (--expose-gc)
  const fux = await home.client();
  await fux.workspace.new.mutate({ name: 'mem', cols: 200, rows: 50 });
  const baseline = resident();
  // 100 000 lines of 190 characters: 19 MB of text, which xterm alone would hold as 240 MB.
  const argv = floodThen("seq -f '%0190.0f' 1 100000");
  const { id } = await fux.tab.new.mutate({ workspace: 'mem', argv, cwd: home.dir });
  await until(
    async () => (await fux.capture.query({ workspace: 'mem', id })).text.includes('filled'),
    120_000,
    'the pane to print its flood',
  );
  const grown = resident() - baseline;
  const before = serverLog().length;
  await fux.kill.mutate({ workspace: 'mem', id });
  const returned = await until(
    () => [...serverLog().slice(before).matchAll(GIVEN_BACK)].at(-1),
    60_000,
    'the server to log that it gave memory back',
  );
  const kept = Number(returned[2]) * MIB - baseline;
  console.log(
    `a pane with 100 000 lines of 190 characters: +${(grown / MIB).toFixed(1)} MiB, ` +
      `+${(kept / MIB).toFixed(1)} MiB once closed`,
  );
  // What the pane held, history and terminal, is gone but for some of the server's own growth.
  expect(kept).toBeLessThan(grown / 4);
}, 180_000);
