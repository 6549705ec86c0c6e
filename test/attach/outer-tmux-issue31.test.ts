/**
 * Issue 31 in a real terminal: tmux is the user's terminal, `fux` runs in it (as in
 * outer-tmux.test.ts), and what a user saw go wrong must not any more.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FuxHome, fuxBin, until } from '../helpers/home';
import { OuterTmux } from '../helpers/outer-tmux';
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

/** What the attach clients logged of their own faults ('' when none). */
const clientLog = (): string => {
  try {
    return fs.readFileSync(path.join(home.env.XDG_STATE_HOME!, 'fux', 'client.log'), 'utf8');
  } catch {
    return '';
  }
};

async function attachIn(ws: string, cols = 80, rows = 24): Promise<string> {
  const t = outer.open(ws, cols, rows, fuxCommand(ws));
  await outer.waitFor(t, prompt, 'the shell prompt in fux');
  return t;
}

describe('issue 31 in a real terminal', () => {
  test('the workspace picker opens after a popup has closed, and the client goes on (31.1)', async () => {
    const t = await attachIn('w-fid');
    const popup = home.spawnCli(['popup', '-w', 'w-fid', '--', 'sh', '-c', 'echo in-the-popup; read x']);
    const exited = new Promise<void>((r) => popup.once('exit', () => r()));
    await outer.waitFor(t, (l) => l.some((x) => x.includes('in-the-popup')), 'the popup');
    outer.keys(t, ['q', 'Enter']);
    await exited;
    await outer.waitFor(t, (l) => !l.some((x) => x.includes('in-the-popup')), 'the popup gone');
    outer.keys(t, ['C-a', 's']);
    await outer.waitFor(t, (l) => l.some((x) => x.includes('workspaces')), 'the picker');
    outer.keys(t, ['Escape']);
    await outer.waitFor(t, (l) => !l.some((x) => x.includes('workspaces')), 'the picker closed');
    outer.keys(t, ['echo still-here', 'Enter']);
    await outer.waitFor(t, (l) => l.some((x) => x.startsWith('still-here')), 'the client still attached');
    expect(outer.dead(t)).toBe(false);
    // Not even a fault the client survived.
    expect(clientLog()).toBe('');
  });

  test('a 10×4 terminal shows "terminal too small", not an error, and the panes come back when it grows (31.7)', async () => {
    const t = await attachIn('w-tiny');
    // Three stacked panes: a 10×2 pane area cannot hold them (the server refused "5x0").
    await fux.split.mutate({ workspace: 'w-tiny', direction: 'h', argv: ['sh'], cwd: home.dir });
    await fux.split.mutate({ workspace: 'w-tiny', direction: 'h', argv: ['sh'], cwd: home.dir });
    outer.command(['resize-window', '-t', t, '-x', '10', '-y', '4']);
    const tiny = await outer.waitFor(t, (l) => l.some((x) => x.includes('too small')), 'the too-small view');
    expect(tiny.join('\n')).not.toMatch(/error/);
    const before = (await fux.list.query({ workspace: 'w-tiny' })).workspaces[0]!;
    expect([before.cols, before.rows]).toEqual([80, 22]);
    outer.command(['resize-window', '-t', t, '-x', '60', '-y', '20']);
    await outer.waitFor(t, (l) => !l.some((x) => x.includes('too small')) && prompt(l), 'the panes again');
    await until(
      async () => {
        const ws = (await fux.list.query({ workspace: 'w-tiny' })).workspaces[0]!;
        return ws.cols === 60 && ws.rows === 18;
      },
      10_000,
      'the workspace at the new size',
    );
    expect(clientLog()).toBe('');
  });
});
