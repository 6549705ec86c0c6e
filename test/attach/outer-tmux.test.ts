/**
 * The attach client in a real terminal: tmux is the user's terminal, `fux` runs in it, keys are
 * typed with `tmux send-keys` and the screen is read with `tmux capture-pane`, as a user sees it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FuxHome, fuxBin, until } from '../helpers/home';
import { OuterTmux } from '../helpers/outer-tmux';
import { cellsOf } from '../helpers/sgr-cells';
import type { FuxClient } from '../../src/client';

let home: FuxHome;
let outer: OuterTmux;
let fux: FuxClient;

beforeEach(async () => {
  home = new FuxHome();
  await home.startServer();
  fux = await home.client();
  outer = new OuterTmux(home.dir, { ...home.env, PS1: '$ ' });
});
afterEach(async () => {
  outer.kill();
  await home.close();
});

const fuxCommand = (args = ''): string => `${process.execPath} ${fuxBin} ${args}`;
const prompt = (lines: string[]): boolean => lines.some((l) => /\$ ?$/.test(l));
/** A column of the screen as a string, top to bottom. */
const column = (lines: string[], x: number): string => lines.map((l) => [...l][x] ?? ' ').join('');

/** Start fux on workspace `ws` in a new outer terminal and wait for its shell's prompt. */
async function attachIn(ws: string, cols = 80, rows = 24, name = ws): Promise<string> {
  const t = outer.open(name, cols, rows, fuxCommand(ws));
  await outer.waitFor(t, prompt, 'the shell prompt in fux');
  return t;
}

async function paneCount(ws: string): Promise<number> {
  const list = await fux.list.query({ workspace: ws });
  return list.workspaces[0]?.panes.length ?? 0;
}

describe('fux attached in a real terminal', () => {
  test('the prefix and | split the window into two panes with a border between them', async () => {
    const t = await attachIn('w-split');
    outer.keys(t, ['C-a', '|']);
    await until(async () => (await paneCount('w-split')) === 2, 10_000, 'two panes');
    const lines = await outer.waitFor(
      t,
      (l) =>
        column(l, 39)
          .slice(1, 23)
          .split('')
          .every((c) => c === '│'),
      'a border',
    );
    expect(lines[0]).toMatch(/w-split/); // the tab bar names the workspace
    // Typing reaches the focused (new, right) pane.
    outer.keys(t, ['echo right-$((40+2))', 'Enter']);
    const after = await outer.waitFor(
      t,
      (l) => l.some((x) => x.includes('right-42')),
      'echo in the right pane',
    );
    const row = after.find((x) => x.includes('right-42'))!;
    expect([...row].indexOf('r')).toBeGreaterThan(39);
  });

  test('focus moves with h and l, and zoom fills the window with one pane', async () => {
    const t = await attachIn('w-focus');
    outer.keys(t, ['C-a', '|']);
    await until(async () => (await paneCount('w-focus')) === 2, 10_000, 'two panes');
    outer.keys(t, ['C-a', 'h']);
    await until(
      async () => {
        const ws = (await fux.list.query({ workspace: 'w-focus' })).workspaces[0]!;
        return ws.panes.find((p) => p.focused)?.x === 0;
      },
      10_000,
      'focus left',
    );
    outer.keys(t, ['echo left-side', 'Enter']);
    const lines = await outer.waitFor(t, (l) => l.some((x) => /^left-side/.test(x)), 'echo in the left pane');
    expect(lines.find((x) => /^left-side/.test(x))).toBeDefined();
    outer.keys(t, ['C-a', 'z']);
    await outer.waitFor(t, (l) => !l.slice(1, 23).some((x) => x.includes('│')), 'no border while zoomed');
    outer.keys(t, ['C-a', 'z']);
    await outer.waitFor(t, (l) => column(l, 39).slice(1, 23).includes('│'), 'the border is back');
  });

  test('a click focuses the pane under the mouse', async () => {
    const t = await attachIn('w-click');
    outer.keys(t, ['C-a', '-']);
    await until(async () => (await paneCount('w-click')) === 2, 10_000, 'two panes');
    // An SGR mouse press and release at column 5, row 3 (1-based): in the top pane.
    outer.keys(t, ['\x1b[<0;5;3M\x1b[<0;5;3m'], true);
    await until(
      async () => {
        const ws = (await fux.list.query({ workspace: 'w-click' })).workspaces[0]!;
        return ws.panes.find((p) => p.focused)?.y === 0;
      },
      10_000,
      'the top pane focused',
    );
  });

  test('a second tab shows in the tab bar', async () => {
    const t = await attachIn('w-tabs');
    outer.keys(t, ['C-a', 't']);
    const lines = await outer.waitFor(t, (l) => /2:/.test(l[0] ?? ''), 'tab 2 in the tab bar');
    expect(lines[0]).toMatch(/1:.*2:/);
    const tabActive = (index: number, what: string): Promise<unknown> =>
      until(
        async () => (await fux.list.query({ workspace: 'w-tabs' })).workspaces[0]!.tabs[index]!.active,
        10_000,
        what,
      );
    outer.keys(t, ['C-a', '1']);
    await tabActive(0, 'tab 1 active again');
    // A click on tab 2's label in the tab bar (row 1, 1-based) selects it, as its key would.
    const x = (outer.screen(t)[0] ?? '').indexOf('2:') + 1;
    outer.keys(t, [`\x1b[<0;${x};1M\x1b[<0;${x};1m`], true);
    await tabActive(1, 'tab 2 selected by a click');
  });

  test("the status line shows a pane's agent glyph and follows its state", async () => {
    const t = await attachIn('w-glyph');
    const report = (state: string, seq: number): string =>
      `printf '\\033]7877;state=${state};agent=tester;seq=${seq}\\033\\\\'`;
    outer.keys(
      t,
      [`sh -c "${report('working', 1)}; sleep 2; ${report('blocked', 2)}; sleep 30"`, 'Enter'],
      true,
    );
    outer.keys(t, ['Enter']);
    await outer.waitFor(t, (l) => (l[23] ?? '').includes('●'), 'working glyph');
    await outer.waitFor(t, (l) => (l[23] ?? '').includes('◐'), 'blocked glyph');
  });

  test('a colour and attribute pattern comes out with the same cells as run directly in tmux', async () => {
    const script = path.join(home.dir, 'pattern.sh');
    fs.writeFileSync(
      script,
      [
        "printf '\\033[31mred\\033[0m \\033[1;32mbold-green\\033[0m \\033[2mdim\\033[0m \\033[3mitalic\\033[0m\\n'",
        "printf '\\033[4munder\\033[0m \\033[7minverse\\033[0m \\033[9mstrike\\033[0m \\033[38;5;208m256-fg\\033[0m \\033[48;5;24m256-bg\\033[0m\\n'",
        "printf '\\033[38;2;255;100;0mtruecolor\\033[0m \\033[48;2;0;80;160mtrue-bg\\033[0m \\033[95mbright\\033[0m\\n'",
        "printf '你好 wide 🙂 emoji\\n'",
      ].join('\n'),
    );
    const direct = outer.open('direct', 80, 24, `sh -c 'clear; sh ${script}; sleep 60'`);
    const want = (await outer.waitFor(direct, (l) => l.some((x) => x.includes('emoji')), 'direct pattern'))
      .slice(0, 4)
      .join('\n');
    const t = await attachIn('w-pattern');
    outer.keys(t, [`clear; sh ${script}; sleep 60`, 'Enter'], true);
    outer.keys(t, ['Enter']);
    await outer.waitFor(t, (l) => l.some((x) => x.includes('emoji')), 'pattern in fux');
    const directCells = outer.screen(direct, true, { from: 0, to: 3 });
    // fux's pane starts on row 1, under the tab bar.
    const fuxCells = outer.screen(t, true, { from: 1, to: 4 });
    expect(await cellsOf(fuxCells, 80)).toEqual(await cellsOf(directCells, 80));
    expect(want).toContain('truecolor');
  });

  test('copy mode selects text and sends it out as OSC 52', async () => {
    const t = await attachIn('w-copy');
    outer.command(['set-option', '-g', 'set-clipboard', 'on']);
    outer.keys(t, ['echo copy-me-please', 'Enter']);
    await outer.waitFor(t, (l) => l.some((x) => x.startsWith('copy-me-please')), 'the line to copy');
    outer.keys(t, ['C-a', '[']);
    await outer.waitFor(t, (l) => (l[23] ?? '').includes('COPY'), 'copy mode marker');
    // From the prompt up to the echoed line, its start, select to the end of the word, yank.
    outer.keys(t, ['k', '0', 'v', 'e', 'y']);
    await until(() => outer.buffer() === 'copy', 10_000, 'tmux received the OSC 52 copy');
    expect(outer.buffer()).toBe('copy');
  });

  test('detach leaves the panes running and re-attaching shows them', async () => {
    // A shell around fux keeps the terminal alive after fux exits (tmux can drop what a program
    // wrote just before it died), and shows fux's exit status.
    const t = outer.open(
      'w-detach',
      80,
      24,
      `sh -c '${fuxCommand('w-detach')}; echo "fux exited $?"; exec sleep 60'`,
    );
    await outer.waitFor(t, prompt, 'the shell prompt in fux');
    outer.keys(t, ['echo before-detach', 'Enter']);
    await outer.waitFor(t, (l) => l.some((x) => x.startsWith('before-detach')), 'echo');
    outer.keys(t, ['C-a', 'd']);
    const after = await outer.waitFor(t, (l) => l.some((x) => x.includes('fux exited')), 'fux exited');
    expect(after.join('\n')).toMatch(/\[detached\]\s*\n\s*fux exited 0/);
    expect(await paneCount('w-detach')).toBe(1);
    const again = outer.open('again', 80, 24, fuxCommand('w-detach'));
    await outer.waitFor(again, (l) => l.some((x) => x.startsWith('before-detach')), 'the pane as it was');
  });

  test('two clients at different sizes: both draw, and the last to attach sets the size', async () => {
    const big = await attachIn('w-two', 100, 30, 'big');
    outer.keys(big, ['echo shared-pane', 'Enter']);
    await outer.waitFor(big, (l) => l.some((x) => x.startsWith('shared-pane')), 'echo in big');
    const small = outer.open('small', 60, 20, fuxCommand('w-two'));
    await outer.waitFor(small, (l) => l.some((x) => x.startsWith('shared-pane')), 'the pane in small');
    await until(
      async () => {
        const ws = (await fux.list.query({ workspace: 'w-two' })).workspaces[0]!;
        return ws.cols === 60 && ws.rows === 18;
      },
      10_000,
      'the workspace at the small client size',
    );
    const bigLines = await outer.waitFor(
      big,
      (l) => l.some((x) => x.startsWith('shared-pane')),
      'big still shows it',
    );
    expect(bigLines.length).toBe(30);
  });

  test('an attach client killed with SIGKILL mid-flood leaves the server and panes running; re-attach works', async () => {
    const t = await attachIn('w-kill');
    outer.keys(t, ['seq 1 400000; echo flood-over', 'Enter']);
    await outer.waitFor(t, (l) => l.some((x) => /^\d{4,}$/.test(x)), 'the flood on screen');
    process.kill(outer.pid(t), 'SIGKILL');
    await until(() => outer.dead(t), 10_000, 'the client gone');
    const again = outer.open('again', 80, 24, fuxCommand('w-kill'));
    await outer.waitFor(
      again,
      (l) => l.some((x) => x.startsWith('flood-over')),
      'the pane finished its flood',
      60_000,
    );
    expect(await paneCount('w-kill')).toBe(1);
  });

  test('help lists the bindings, and the workspace picker switches workspace', async () => {
    await fux.workspace.new.mutate({ name: 'w-other' });
    await fux.new.mutate({
      workspace: 'w-other',
      argv: ['sh', '-c', 'echo in-the-other; exec sleep 60'],
      cwd: home.dir,
    });
    const t = await attachIn('w-help');
    outer.keys(t, ['C-a', '?']);
    const help = await outer.waitFor(
      t,
      (l) => l.some((x) => x.includes('split the pane')),
      'the help overlay',
    );
    expect(help.join('\n')).toMatch(/d +detach/);
    outer.keys(t, ['q']);
    await outer.waitFor(t, (l) => !l.some((x) => x.includes('split the pane')), 'help closed');
    outer.keys(t, ['C-a', 's']);
    await outer.waitFor(t, (l) => l.some((x) => x.includes('w-other')), 'the picker');
    // The picker lists the workspaces oldest first and starts on the current one: w-other is above.
    outer.keys(t, ['k', 'k', 'Enter']);
    await outer.waitFor(t, (l) => l.some((x) => x.startsWith('in-the-other')), 'the other workspace shown');
    expect(outer.screen(t)[0]).toMatch(/w-other/);
  });

  test('a popup shows over the panes, takes the keys, and goes when its program exits', async () => {
    const t = await attachIn('w-popup');
    const popup = home.spawnCli([
      'popup',
      '-w',
      'w-popup',
      '--size',
      '40x8',
      '--',
      'sh',
      '-c',
      'echo popup-says-hi; read x; exit 3',
    ]);
    const exited = new Promise<number | null>((r) => popup.once('exit', (code) => r(code)));
    const shown = await outer.waitFor(t, (l) => l.some((x) => x.includes('popup-says-hi')), 'the popup');
    const row = shown.find((x) => x.includes('popup-says-hi'))!;
    expect([...row].indexOf('p')).toBeGreaterThan(10); // centred, not at the left edge
    outer.keys(t, ['Enter']);
    await expect(exited).resolves.toBe(3);
    await outer.waitFor(t, (l) => !l.some((x) => x.includes('popup-says-hi')), 'the popup gone');
  });

  test('a pasted text reaches the pane bracketed when the program asked for it', async () => {
    const t = await attachIn('w-paste');
    const out = path.join(home.dir, 'pasted.bin');
    // The program turns bracketed paste on and records what it reads.
    outer.keys(t, [`printf '\\033[?2004hpaste-ready\\n'; head -c 23 > ${out}`], true);
    outer.keys(t, ['Enter']);
    // The frame that shows the marker carries the pane's new modes (or a later one does not precede it).
    await outer.waitFor(t, (l) => l.some((x) => x.startsWith('paste-ready')), 'bracketed paste on');
    outer.command(['set-buffer', '-b', 'p', 'pasted-text']);
    outer.command(['paste-buffer', '-p', '-b', 'p', '-t', t]);
    // The tty is in cooked mode: C-d hands the line to head.
    outer.keys(t, ['C-d']);
    await until(
      () => fs.existsSync(out) && fs.readFileSync(out).length >= 23,
      10_000,
      'the pane read the paste',
    );
    expect(fs.readFileSync(out, 'latin1')).toBe('\x1b[200~pasted-text\x1b[201~');
  });

  test('a configured prefix and a binding to a command work, and the default prefix no longer does', async () => {
    const marker = path.join(home.dir, 'bound.txt');
    fs.mkdirSync(path.join(home.dir, 'config', 'fux'), { recursive: true });
    fs.writeFileSync(
      path.join(home.dir, 'config', 'fux', 'config.toml'),
      `prefix = "C-b"\n[bindings]\n"g" = { command = "echo $FUX_PANE > ${marker}" }\n`,
    );
    const t = await attachIn('w-keys');
    // The server reloads the file on change: press the binding until the reload has happened.
    await until(
      () => {
        outer.keys(t, ['C-b', 'g']);
        return fs.existsSync(marker) && fs.readFileSync(marker, 'utf8').trim() === '1';
      },
      10_000,
      'the bound command ran with FUX_PANE',
    );
    outer.keys(t, ['C-a', '|']);
    outer.keys(t, ['C-b', '-']);
    await until(async () => (await paneCount('w-keys')) === 2, 10_000, 'C-b - split');
    const ws = (await fux.list.query({ workspace: 'w-keys' })).workspaces[0]!;
    // C-a went to the shell; C-b - split down (the panes are stacked, not side by side).
    expect(ws.panes.map((p) => p.x)).toEqual([0, 0]);
  });

  test('predictive echo shows typed text at once, underlined, and takes it back when the program does not echo', async () => {
    const t = outer.open('w-predict', 80, 24, `FUX_PREDICT=always ${fuxCommand('w-predict')}`);
    await outer.waitFor(t, prompt, 'the shell prompt in fux');
    outer.keys(t, ['stty -echo; echo silent-ready; cat > /dev/null'], true);
    outer.keys(t, ['Enter']);
    await outer.waitFor(t, (l) => l.some((x) => x.startsWith('silent-ready')), 'echo off');
    outer.keys(t, ['guess'], true);
    const shown = await outer.waitFor(
      t,
      (l) => l.some((x) => x.startsWith('guess')),
      'the predicted text',
      5_000,
    );
    const row = shown.findIndex((x) => x.startsWith('guess'));
    // Marked as a guess: underlined.
    const [cells] = await cellsOf(outer.screen(t, true, { from: row, to: row }), 80);
    expect(
      cells!
        .split(' ')
        .slice(0, 5)
        .map((c) => c.split('/')[0]),
    ).toEqual(['g', 'u', 'e', 's', 's']);
    expect(
      cells!
        .split(' ')
        .slice(0, 5)
        .every((c) => c.split(',')[7] === '1'),
    ).toBe(true);
    // The server never echoes it: the guess is taken back.
    await outer.waitFor(t, (l) => !l.some((x) => x.startsWith('guess')), 'the guess withdrawn', 5_000);
  });

  test('the wheel over a pane scrolls its history in copy mode, and a drag selects and copies', async () => {
    const t = await attachIn('w-mouse');
    outer.command(['set-option', '-g', 'set-clipboard', 'on']);
    outer.keys(t, ['seq 1 60; echo drag-me-now', 'Enter']);
    await outer.waitFor(t, (l) => l.some((x) => x.startsWith('drag-me-now')), 'the output');
    // Wheel up (SGR button 64) over the pane: copy mode, scrolled back.
    outer.keys(t, ['\x1b[<64;10;10M'], true);
    await outer.waitFor(t, (l) => (l[23] ?? '').includes('COPY'), 'copy mode from the wheel');
    outer.keys(t, ['q']);
    await outer.waitFor(t, (l) => !(l[23] ?? '').includes('COPY'), 'out of copy mode');
    // Drag over "drag-me" on its row (1-based: row of the text + 1 for the tab bar), then release.
    const lines = outer.screen(t);
    const y = lines.findIndex((x) => x.startsWith('drag-me-now')) + 1;
    outer.keys(t, [`\x1b[<0;1;${y}M\x1b[<32;4;${y}M\x1b[<32;7;${y}M\x1b[<0;7;${y}m`], true);
    await until(() => outer.buffer() === 'drag-me', 10_000, 'the selection copied by OSC 52');
  });
});
