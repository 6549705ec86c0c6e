// The README's "A 60-second tour", every line in order, on a fresh server (the first verb starts
// it), each line's output checked. Agents do not run here: `claude` is a script that draws the
// captured Claude Code screens in answer to what is typed (zor knows it by ZOR_AGENT), `codex` is
// `cat`, and the `| jq` of `fux subscribe` is left out (its lines are parsed as JSON instead).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixtureScreen } from '../agents/fixture-screen';
import { FuxHome, root, until } from '../helpers/home';

jest.setTimeout(180_000);

/** The tour's lines as the README has them: comments off, `a; b` as two commands. */
function tourCommands(): string[] {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const block = /## A 60-second tour\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (block === undefined) throw new Error('README.md has no tour');
  return block
    .split('\n')
    .map((line) => line.replace(/\s{2,}#.*$/, '').trim())
    .filter((line) => line !== '')
    .flatMap((line) => line.split('; '));
}

/** Shell words: spaces split them, single quotes keep them together. */
function words(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

const SCREENS = {
  idle: 'idle-after-reply-80x24',
  working: 'working-streaming-80x24',
  blocked: 'permission-bash-80x24',
};

/** Stand-ins for the agents, on the PATH the tour's commands run with. */
function standIns(dir: string): string {
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  for (const [name, fixture] of Object.entries(SCREENS)) {
    const { title, body } = fixtureScreen(path.join(root, 'fixtures', 'claude', `${fixture}.txt`));
    fs.writeFileSync(path.join(dir, name), `\x1b]2;${title}\x07\x1b[H\x1b[2J\x1b[3J${body.join('\r\n')}`);
  }
  // A turn works for a moment (long enough for the detector to see it), then idles or asks.
  const claude = [
    '#!/bin/sh',
    '[ -n "$ZOR_AGENT" ] || exec env ZOR_AGENT=claude "$0" "$@"',
    `d='${dir}'`,
    'stty -echo 2>/dev/null',
    'cat "$d/idle"',
    'while IFS= read -r line; do',
    '  case "$line" in',
    '    */exit) exit 0 ;;',
    '    \'run the tests\') cat "$d/working"; sleep 0.5; cat "$d/blocked" ;;',
    '    *) cat "$d/working"; sleep 0.5; cat "$d/idle" ;;',
    '  esac',
    'done',
  ].join('\n');
  fs.writeFileSync(path.join(bin, 'claude'), `${claude}\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(bin, 'codex'), '#!/bin/sh\nexec cat\n', { mode: 0o755 });
  return bin;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A command that runs until stopped, its output so far. */
interface Streaming {
  child: ChildProcess;
  lines(): string[];
}

let home: FuxHome;
let streams: Streaming[] = [];
afterEach(async () => {
  for (const s of streams) s.child.kill('SIGKILL');
  streams = [];
  await home.close();
});

test('every command of the README tour runs, in order, on a fresh server, and prints what it says', async () => {
  home = new FuxHome();
  const env: Record<string, string> = {
    ...home.env,
    PATH: `${standIns(home.dir)}:${home.env.PATH ?? ''}`,
  };
  const bins: Record<string, string> = {
    fux: path.join(root, 'bin', 'fux'),
    zor: path.join(root, 'bin', 'zor'),
  };
  const run = (argv: string[], input?: string): Run => {
    const [bin, ...args] = argv;
    const r = spawnSync(process.execPath, [bins[bin!]!, ...args], {
      env,
      cwd: root,
      input,
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const stream = (argv: string[]): Streaming => {
    const [bin, ...args] = argv;
    const child = spawn(process.execPath, [bins[bin!]!, ...args], { env, cwd: root });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const s = { child, lines: () => out.split('\n').filter((l) => l !== '') };
    streams.push(s);
    return s;
  };
  const ok = (stdout: string | RegExp) => (r: Run) => {
    expect(r).toMatchObject({ code: 0, stderr: '' });
    if (typeof stdout === 'string') expect(r.stdout).toBe(stdout);
    else expect(r.stdout).toMatch(stdout);
  };
  let transitions: Streaming | undefined;
  const agentStates = (): Array<{ id: number; state: string }> =>
    (transitions?.lines() ?? []).map((l) => JSON.parse(l) as { id: number; state: string });

  const steps: Array<[string, (argv: string[]) => void | Promise<void>]> = [
    ['export FUX_WORKSPACE=tour', () => void (env.FUX_WORKSPACE = 'tour')],
    ['fux new -- claude', (argv) => ok('1\n')(run(argv))],
    ['fux split v -- claude', (argv) => ok('2\n')(run(argv))],
    ['fux split h', (argv) => ok('3\n')(run(argv))],
    [
      'fux list',
      (argv) => {
        const r = run(argv);
        ok(/^tour \(80x24\)$/m)(r);
        expect(r.stdout).toMatch(/^ {2}[ +] {3}1 {2}tab 1 .* claude {2}/m);
        expect(r.stdout).toMatch(/^ {2}[ +] {3}2 {2}tab 1 .* claude {2}/m);
        expect(r.stdout).toMatch(/^ {2}\* {3}3 {2}tab 1 .* \/bin\/sh {2}/m);
      },
    ],
    ["fux send-keys 3 'ls -la' Enter", (argv) => ok('')(run(argv))],
    [
      'fux capture 3 --scrollback 200',
      // The listing of the directory the shell started in (this repository's root has README.md).
      (argv) => until(() => / README\.md$/m.test(run(argv).stdout) || undefined, 20_000, 'ls -la in pane 3'),
    ],
    ['fux focus left', (argv) => ok('1\n')(run(argv))],
    ['fux zoom', (argv) => ok('pane 1 zoomed\n')(run(argv))],
    ['fux subscribe agent.state | jq', (argv) => void (transitions = stream(argv.slice(0, -2)))],
    [
      'fux subscribe --since 1',
      async (argv) => {
        const s = stream(argv);
        await until(() => s.lines().length > 0 || undefined, 20_000, 'the events after seq 1');
        expect(JSON.parse(s.lines()[0]!)).toMatchObject({ seq: 2 });
        s.child.kill();
      },
    ],
    ["fux send-keys 1 'fix the test' Enter", (argv) => ok('')(run(argv))],
    [
      'fux wait 1 --state idle',
      async (argv) => {
        ok('1 idle (claude)\n')(run(argv));
        await until(
          () => agentStates().some((e) => e.id === 1 && e.state === 'working') || undefined,
          20_000,
          'the subscription to print the turn',
        );
      },
    ],
    ["fux send-keys 1 'run the tests' Enter", (argv) => ok('')(run(argv))],
    ['fux wait 1 --state blocked', (argv) => ok('1 blocked (claude)\n')(run(argv))],
    ['fux answer 1 yes', (argv) => ok('pane 1: chose 1. Yes\n')(run(argv))],
    ['fux send-keys 1 /exit Enter', (argv) => ok('')(run(argv))],
    ['fux wait 1 --state exited', (argv) => ok(/^1 exited( \(claude\))?\n$/)(run(argv))],
    ['fux tab new', (argv) => ok(/^\d+\n$/)(run(argv))],
    ['fux tab next', (argv) => ok(/.*/)(run(argv))],
    ['fux -w agents new -- codex', (argv) => ok('1\n')(run(argv))],
    ['fux kill-server', (argv) => ok(/.*/)(run(argv))],
    [
      'fux restore --list',
      (argv) => {
        const r = run(argv);
        ok(/\btour\b/)(r);
        expect(r.stdout).toMatch(/\bagents\b/);
      },
    ],
    [
      'zor -- claude',
      (argv) => {
        // Typed to the stand-in as a user would, to end it; its screen is relayed, its exit status passed on.
        // (It ends before zor's idle hold, so no state is announced: test/zor covers the announcing.)
        const r = run(argv, '/exit\n');
        expect(r.code).toBe(0);
        expect(r.stdout).toContain('Claude Code v2.1.197');
      },
    ],
    ['zor agents', (argv) => ok(/^claude\b/m)(run(argv))],
    ['zor check fixtures/claude/permission-bash.txt', (argv) => ok(/blocked/)(run(argv))],
  ];

  expect(tourCommands()).toEqual(steps.map(([command]) => command));
  for (const [command, check] of steps) {
    try {
      await check(words(command));
    } catch (error) {
      throw new Error(`README tour, \`${command}\`: ${(error as Error).message}`, { cause: error });
    }
  }
});
