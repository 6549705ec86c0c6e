// The server's per-pane detector (DESIGN.md §6, §8) on real panes: a real pty, the pane's own
// @xterm/headless terminal, zor's bundled rules and the real process table.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentDetection } from '../../src/server/agent/agent-detection';
import type { AgentChange } from '../../src/server/agent/agent-status';
import { PaneAgent } from '../../src/server/agent/pane-agent';
import { platformProcessTable } from '../../src/zor/ident/platform-process-table';
import { Pane } from '../../src/server/pane';
import { fakeClaude, type ScreenName } from './agent-screens';
import { until } from '../helpers/wait-for';

let dir: string;
let detection: AgentDetection;
const panes: Pane[] = [];
const agents: PaneAgent[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-agent-'));
  // A private config home: no user rule set can change what the bundled ones say.
  const silent = { info: () => undefined, warn: () => undefined };
  detection = AgentDetection.load({ ...process.env, XDG_CONFIG_HOME: path.join(dir, 'config') }, silent);
});
afterEach(() => {
  for (const agent of agents.splice(0)) agent.dispose();
  for (const pane of panes.splice(0)) pane.dispose();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Watched {
  pane: Pane;
  agent: PaneAgent;
  changes: AgentChange[];
}

function watch(argv: string[], env: Record<string, string>, quietAfterMs?: number): Watched {
  const pane = Pane.spawn({ argv, cwd: dir, env, cols: 80, rows: 24, scrollback: 100 });
  panes.push(pane);
  const changes: AgentChange[] = [];
  const onChange = (change: AgentChange): void => void changes.push(change);
  const agent =
    quietAfterMs === undefined
      ? detection.watch(pane, onChange)
      : new PaneAgent({ pane, sets: detection.sets, table: platformProcessTable(), onChange, quietAfterMs });
  agents.push(agent);
  return { pane, agent, changes };
}

function draw(w: Watched, screen: ScreenName): void {
  w.pane.write(`${screen}\r`);
}

const states = (changes: AgentChange[]): string[] => changes.map((c) => c.current.state);

describe('the rule sets', () => {
  test("are the bundled ones plus the user's $XDG_CONFIG_HOME/zor/rules; a broken file there is logged and skipped", () => {
    const config = fs.mkdtempSync(path.join(dir, 'config-'));
    const userRules = path.join(config, 'zor', 'rules');
    fs.mkdirSync(userRules, { recursive: true });
    const bundled = fs.readFileSync(path.join(__dirname, '..', '..', 'rules', 'claude.toml'), 'utf8');
    fs.writeFileSync(path.join(userRules, 'mine.toml'), bundled.replace('id = "claude"', 'id = "mine"'));
    fs.writeFileSync(path.join(userRules, 'broken.toml'), 'id = \n');
    const warnings: string[] = [];
    const loaded = AgentDetection.load(
      { ...process.env, XDG_CONFIG_HOME: config },
      { info: () => undefined, warn: (message) => void warnings.push(message) },
    );
    expect(loaded.sets.map((set) => set.id)).toEqual(expect.arrayContaining(['claude', 'codex', 'mine']));
    expect(warnings).toEqual([expect.stringContaining(path.join(userRules, 'broken.toml'))]);
  });
});

describe('the detector on a pane', () => {
  test('a pane whose program is identified as claude is published working, then blocked with the blocker flag when it draws a permission prompt', async () => {
    const claude = fakeClaude(dir);
    const w = watch(claude.argv, claude.env);
    draw(w, 'working');
    await until(() => w.agent.current.state === 'working', 10_000, 'working');
    draw(w, 'blocked');
    await until(() => w.agent.current.state === 'blocked', 10_000, 'blocked');
    expect(states(w.changes)).toEqual(['working', 'blocked']);
    const blocked = w.changes[1]!;
    expect(blocked.previous).toMatchObject({ agent: 'claude', state: 'working' });
    expect(blocked.current).toEqual({
      agent: 'claude',
      state: 'blocked',
      visible: { idle: false, blocker: true, working: false },
    });
    expect(w.agent.since).toBe(blocked.at);
  });

  test('working becomes idle once the idle prompt has held its ground', async () => {
    const claude = fakeClaude(dir);
    const w = watch(claude.argv, claude.env);
    draw(w, 'working');
    await until(() => w.agent.current.state === 'working', 10_000, 'working');
    draw(w, 'idle');
    await until(() => w.agent.current.state === 'idle', 10_000, 'idle');
    expect(states(w.changes)).toEqual(['working', 'idle']);
    expect(w.changes[1]!.current.agent).toBe('claude');
  });

  test('a pane without output goes quiet with nothing scheduled, and its next output wakes the detector', async () => {
    const w = watch(['/bin/sh', '-c', 'read line; echo "got $line"; read line'], {}, 200);
    await until(() => !w.agent.scheduled, 10_000, 'the detector to go quiet');
    let woke = false;
    const onOutput = (): void => {
      woke ||= w.agent.scheduled;
    };
    w.pane.on('output', onOutput);
    w.pane.write('hello\r');
    await until(() => woke, 10_000, 'the output to wake the detector');
    await until(() => !w.agent.scheduled, 10_000, 'the detector to go quiet again');
  });

  test("a pane's own OSC 7877 report is published, and lapses when the job that sent it leaves the foreground", async () => {
    const script = path.join(dir, 'report.sh');
    fs.writeFileSync(
      script,
      [
        "printf '\\033]7877;state=blocked;agent=selfie;seq=4;visible=blocker\\033\\\\'",
        "printf '\\033]7877;state=blocked;agent=selfie;seq=4;visible=blocker\\033\\\\'",
        "printf '\\033]7877;state=working;agent=selfie;seq=5\\033\\\\'",
        'read line',
      ].join('\n'),
    );
    // An interactive shell runs the script as a foreground job of its own.
    const w = watch(['/bin/sh'], { PATH: process.env.PATH ?? '/usr/bin:/bin', PS1: '$ ' });
    w.pane.write(`sh ${script}\r`);
    await until(() => w.agent.current.state === 'working', 10_000, 'the working report');
    expect(w.changes.map((c) => c.current)).toEqual([
      { agent: 'selfie', state: 'blocked', visible: { idle: false, blocker: true, working: false } },
      { agent: 'selfie', state: 'working', visible: { idle: false, blocker: false, working: false } },
    ]);
    // The script ends; the shell takes the foreground back and prints its prompt.
    w.pane.write('\r');
    await until(() => w.agent.current.state === 'none', 10_000, 'the report to lapse');
    expect(w.changes.at(-1)).toMatchObject({
      previous: { state: 'working' },
      current: { agent: undefined, state: 'none' },
    });
  });
});
