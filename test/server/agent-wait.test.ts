// `wait` (DESIGN.md §5): the typed client's subscription and `fux wait`, against a real server and
// panes drawing captured Claude Code screens.
import type { FuxClient } from '../../src/client';
import type { WaitResult } from '../../src/server/schemas';
import { FuxHome, until } from '../helpers/home';
import { fakeClaude, type ScreenName } from './agent-screens';

let home: FuxHome;
let fux: FuxClient;
beforeEach(async () => {
  home = new FuxHome();
  await home.startServer();
  fux = await home.client();
});
afterEach(() => home.close());

type WaitInput = Parameters<FuxClient['wait']['subscribe']>[0];

/** A wait through the typed client: resolves once the server has registered it, with the outcome to come. */
async function startWait(input: WaitInput): Promise<{ outcome: Promise<WaitResult> }> {
  let started!: () => void;
  const registered = new Promise<void>((resolve) => (started = resolve));
  const outcome = new Promise<WaitResult>((resolve, reject) => {
    fux.wait.subscribe(input, {
      onStarted: () => started(),
      onData: resolve,
      onError: (err) => {
        started();
        reject(err);
      },
    });
  });
  // The wait may end before the test gets to awaiting it (a kill whose reply comes after the
  // wait's error): mark the rejection handled here so it is not reported as unhandled, and let
  // the test's own `expect(...).rejects` read it.
  outcome.catch(() => undefined);
  await registered;
  return { outcome };
}

async function openFakeClaude(options: Parameters<typeof fakeClaude>[1] = {}): Promise<number> {
  const claude = fakeClaude(home.dir, options);
  // A tab each, so every pane has the 80x24 the fixtures were captured at.
  const { id } = await fux.tab.new.mutate({ argv: claude.argv, env: claude.env, cwd: home.dir });
  return id;
}

async function draw(id: number, screen: ScreenName): Promise<void> {
  await fux.sendKeys.mutate({ id, keys: [screen, 'Enter'] });
}

async function stateOf(id: number): Promise<string | undefined> {
  const { workspaces } = await fux.list.query({});
  return workspaces.flatMap((w) => w.panes).find((p) => p.id === id)?.state;
}

async function drawAndSettle(id: number, screen: ScreenName, state: string): Promise<void> {
  await draw(id, screen);
  await until(async () => (await stateOf(id)) === state, 10_000, `pane ${id} to be ${state}`);
}

describe('wait, from the typed client', () => {
  test('a pane that got there before its last input does not end the wait; with now it does', async () => {
    const id = await openFakeClaude();
    await drawAndSettle(id, 'blocked', 'blocked');
    // Typed into its prompt (it reads whole lines, so nothing is drawn): what it showed before is old news.
    await fux.sendKeys.mutate({ id, keys: ['x'] });
    const late = await startWait({ ids: [id], state: 'blocked', timeoutMs: 300 });
    await expect(late.outcome).rejects.toThrow(
      `pane ${id} did not become blocked within 300 ms (${id} is blocked)`,
    );
    const now = await startWait({ ids: [id], state: 'blocked', now: true });
    await expect(now.outcome).resolves.toEqual({
      panes: [{ id, agent: 'claude', previous: null, state: 'blocked', ts: expect.any(Number) }],
    });
  });

  test('a wait registered before the prompt is drawn sees the transition', async () => {
    const id = await openFakeClaude();
    await drawAndSettle(id, 'working', 'working');
    const wait = await startWait({ ids: [id], state: 'blocked' });
    await draw(id, 'blocked');
    await expect(wait.outcome).resolves.toEqual({
      panes: [{ id, agent: 'claude', previous: 'working', state: 'blocked', ts: expect.any(Number) }],
    });
  });

  test('a transition after the last input counts though it came before the wait', async () => {
    const id = await openFakeClaude();
    await drawAndSettle(id, 'working', 'working');
    // The agent answers before the wait reaches the server: the wait still sees it.
    await drawAndSettle(id, 'blocked', 'blocked');
    const blocked = await startWait({ ids: [id], state: 'blocked', timeoutMs: 10_000 });
    await expect(blocked.outcome).resolves.toEqual({
      panes: [{ id, agent: 'claude', previous: 'working', state: 'blocked', ts: expect.any(Number) }],
    });
    await drawAndSettle(id, 'idle', 'idle');
    const idle = await startWait({ ids: [id], state: 'idle', timeoutMs: 10_000 });
    await expect(idle.outcome).resolves.toMatchObject({
      panes: [{ id, previous: 'blocked', state: 'idle' }],
    });
  });

  test('a pane whose program ends has exited, whether the wait began before or after', async () => {
    // A second pane keeps the workspace when the others close.
    await fux.new.mutate({ argv: ['sh'], cwd: home.dir });
    const ended = async (): Promise<number> => {
      const { id } = await fux.new.mutate({ argv: ['sh', '-c', 'read line'], cwd: home.dir });
      return id;
    };
    const before = await ended();
    const wait = await startWait({ ids: [before], state: 'exited' });
    await fux.sendKeys.mutate({ id: before, keys: ['Enter'] });
    await expect(wait.outcome).resolves.toEqual({
      panes: [{ id: before, agent: null, previous: 'none', state: 'exited', ts: expect.any(Number) }],
    });

    const after = await ended();
    await fux.sendKeys.mutate({ id: after, keys: ['Enter'] });
    await until(async () => (await stateOf(after)) === undefined, 10_000, `pane ${after} to close`);
    const late = await startWait({ ids: [after], state: 'exited' });
    await expect(late.outcome).resolves.toMatchObject({ panes: [{ id: after, state: 'exited' }] });
    const idle = startWait({ ids: [after], state: 'idle' });
    await expect(idle.then((w) => w.outcome)).rejects.toThrow(
      `pane ${after} closed (exit 0) before it became idle`,
    );
  });

  test('every pane must get there, unless any is set and the first one does', async () => {
    const a = await openFakeClaude();
    const b = await openFakeClaude();
    await drawAndSettle(a, 'working', 'working');
    await drawAndSettle(b, 'working', 'working');
    const all = await startWait({ ids: [a, b], state: 'blocked' });
    const any = await startWait({ ids: [a, b], state: 'blocked', any: true });
    await draw(b, 'blocked');
    expect((await any.outcome).panes.map((p) => p.id)).toEqual([b]);
    await draw(a, 'blocked');
    expect((await all.outcome).panes.map((p) => p.id)).toEqual([b, a]);
  });

  test('a pane that closes first ends the wait with an error saying so', async () => {
    const id = await openFakeClaude();
    const wait = await startWait({ ids: [id], state: 'blocked' });
    await fux.kill.mutate({ id });
    await expect(wait.outcome).rejects.toThrow(
      new RegExp(`^pane ${id} closed \\(.*\\) before it became blocked$`),
    );
  });

  test('a pane that does not exist is refused at once', async () => {
    const id = await openFakeClaude();
    const wait = await startWait({ ids: [id, 99], state: 'idle' });
    await expect(wait.outcome).rejects.toThrow('no pane 99 in workspace main; `fux list` shows the panes');
  });
});

describe('fux wait', () => {
  test('--now prints the pane that is already there, and --json its record', async () => {
    const id = await openFakeClaude();
    await drawAndSettle(id, 'blocked', 'blocked');
    const human = home.cli(['wait', String(id), '--state', 'blocked', '--now']);
    expect(human).toMatchObject({ code: 0, stdout: `${id} blocked (claude)\n` });
    const json = home.cli(['wait', String(id), '--state', 'blocked', '--now', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ panes: [{ id, state: 'blocked', previous: null }] });
  });

  test('returns on a transition that happens after it started', async () => {
    const id = await openFakeClaude({ cycle: ['working', 'blocked'] });
    const started = Date.now();
    const r = home.cli(['wait', String(id), '--state', 'blocked', '--timeout', '15s', '--json']);
    expect(r.code).toBe(0);
    const [reachedPane] = (JSON.parse(r.stdout) as WaitResult).panes;
    expect(reachedPane).toMatchObject({ id, previous: 'working', state: 'blocked' });
    expect(reachedPane!.ts).toBeGreaterThanOrEqual(started);
  });

  test('send-keys, then wait, as two commands: an agent that answers before the wait starts is seen', async () => {
    const id = await openFakeClaude();
    await drawAndSettle(id, 'working', 'working');
    expect(home.cli(['send-keys', String(id), 'idle', 'Enter']).code).toBe(0);
    // Answered before `fux wait` has even started.
    await until(async () => (await stateOf(id)) === 'idle', 10_000, `pane ${id} to be idle`);
    const r = home.cli(['wait', String(id), '--state', 'idle', '--timeout', '10s']);
    expect(r).toMatchObject({ code: 0, stdout: `${id} idle (claude)\n` });
  });

  test('exits 1 with a message on timeout, on a closed pane, and on a bad duration', async () => {
    const id = await openFakeClaude();
    // A second pane keeps the workspace when the first is killed.
    await fux.new.mutate({ argv: ['sh'], cwd: home.dir });
    // Blocked on a question, it will not become idle by itself.
    await drawAndSettle(id, 'blocked', 'blocked');
    const timedOut = home.cli(['wait', String(id), '--state', 'idle', '--timeout', '200ms']);
    expect(timedOut.code).toBe(1);
    expect(timedOut.stderr).toMatch(new RegExp(`pane ${id} did not become idle within 200 ms`));

    const waiting = home.spawnCli(['wait', String(id), '--state', 'idle']);
    let stderr = '';
    waiting.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => waiting.once('exit', resolve));
    home.cli(['kill', String(id)]);
    expect(await exited).toBe(1);
    // Killed before the wait reached the server, it finds no pane; after, it hears the pane close.
    expect(stderr).toMatch(
      new RegExp(`pane ${id} closed \\(.*\\) before it became idle|no pane ${id} in workspace`),
    );

    const bad = home.cli(['wait', '1', '--state', 'idle', '--timeout', 'soon']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--timeout "soon" is not a duration');
  });
});
