// Agent state in the workspace (issue 4): every pane's agent in `list`, `agent.state` events, and
// attention, from a real server running zor on a real pane that draws captured Claude Code screens.
import type { FuxClient } from '../../src/client';
import type { EventOf, FuxEvent } from '../../src/server/events';
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

/** Every agent.state event from now on. */
async function agentEvents(): Promise<{ events: EventOf<'agent.state'>[]; stop: () => void }> {
  const events: EventOf<'agent.state'>[] = [];
  let started!: () => void;
  const ready = new Promise<void>((resolve) => (started = resolve));
  const sub = fux.subscribe.subscribe(
    { events: ['agent.state'] },
    {
      onStarted: () => started(),
      onData: (e) => {
        const event = e as FuxEvent;
        if (event.type === 'agent.state') events.push(event);
      },
    },
  );
  await ready;
  // "started" can reach us a turn before the server's listener is in place; a round trip settles it.
  await fux.list.query({});
  return { events, stop: () => sub.unsubscribe() };
}

async function openFakeClaude(workspace?: string): Promise<number> {
  const claude = fakeClaude(home.dir);
  const { id } = await fux.new.mutate({ workspace, argv: claude.argv, env: claude.env, cwd: home.dir });
  return id;
}

async function draw(id: number, screen: ScreenName, workspace?: string): Promise<void> {
  await fux.sendKeys.mutate({ workspace, id, keys: [screen, 'Enter'] });
}

async function pane(id: number) {
  const { workspaces } = await fux.list.query({});
  const found = workspaces.flatMap((w) => w.panes).find((p) => p.id === id);
  if (!found) throw new Error(`no pane ${id} in list`);
  return found;
}

function reached(events: EventOf<'agent.state'>[], id: number, state: string) {
  return () => events.find((e) => e.id === id && e.state === state);
}

describe('agent state', () => {
  test('a shell pane is listed with no agent: state none, no flags, and since its start', async () => {
    const before = Date.now();
    const { id } = await fux.new.mutate({ argv: ['sh'], cwd: home.dir });
    expect(await pane(id)).toMatchObject({ agent: null, state: 'none', visible: [], unseen: false });
    expect((await pane(id)).since).toBeGreaterThanOrEqual(before);
  });

  test("agent.state carries the pane, workspace, agent, both states, the visible flags, the question's first line, a seq and a time, and list agrees", async () => {
    const s = await agentEvents();
    const id = await openFakeClaude();
    await draw(id, 'working');
    await until(reached(s.events, id, 'working'), 10_000, 'working');
    await draw(id, 'blocked');
    const blocked = await until(reached(s.events, id, 'blocked'), 10_000, 'blocked');
    expect(blocked).toEqual({
      type: 'agent.state',
      workspace: 'main',
      id,
      agent: 'claude',
      previous: 'working',
      state: 'blocked',
      visible: ['blocker'],
      question: 'Do you want to proceed?',
      seq: expect.any(Number),
      ts: expect.any(Number),
    });
    expect(s.events.map((e) => e.state)).toEqual(['working', 'blocked']);
    expect(await pane(id)).toMatchObject({
      agent: 'claude',
      state: 'blocked',
      visible: ['blocker'],
      since: blocked.ts,
    });
    s.stop();
  });

  test('`fux subscribe agent.state` prints one JSON object per line', async () => {
    const id = await openFakeClaude();
    const sub = home.spawnCli(['subscribe', 'agent.state']);
    let out = '';
    sub.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    // The CLI's subscription may start after a draw: redraw until its lines show both states.
    let next: ScreenName = 'working';
    await until(
      async () => {
        await draw(id, next);
        next = next === 'working' ? 'blocked' : 'working';
        return out.includes('"state":"blocked"') && out.includes('"state":"working"');
      },
      20_000,
      'the CLI to print a working and a blocked event',
    );
    sub.kill('SIGINT');
    const lines = out.trimEnd().split('\n');
    const parsed = lines.map((line) => JSON.parse(line) as { type: string; id: number; agent: string });
    for (const event of parsed) expect(event).toMatchObject({ type: 'agent.state', id, agent: 'claude' });
  });

  test('an agent that finishes while nobody looks at its pane is unseen until an attached client focuses it', async () => {
    const s = await agentEvents();
    const agentPane = await openFakeClaude();
    const { id: shell } = await fux.tab.new.mutate({ argv: ['sh'], cwd: home.dir });
    const client = fux.attach.session.subscribe(
      { cols: 80, rows: 24, cwd: home.dir, env: { PATH: process.env.PATH ?? '', HOME: home.dir } },
      { onData: () => undefined },
    );
    await draw(agentPane, 'working');
    await until(reached(s.events, agentPane, 'working'), 10_000, 'working');
    await draw(agentPane, 'idle');
    await until(reached(s.events, agentPane, 'idle'), 10_000, 'idle');
    expect(await pane(agentPane)).toMatchObject({ state: 'idle', unseen: true, active: false });
    expect((await pane(shell)).unseen).toBe(false);

    await fux.focus.mutate({ target: agentPane });
    expect(await pane(agentPane)).toMatchObject({ unseen: false, active: true });

    // Finishing in the pane the client shows, in front of the user, is not news.
    s.events.length = 0;
    await draw(agentPane, 'working');
    await until(reached(s.events, agentPane, 'working'), 10_000, 'working again');
    await draw(agentPane, 'idle');
    await until(reached(s.events, agentPane, 'idle'), 10_000, 'idle again');
    expect((await pane(agentPane)).unseen).toBe(false);
    client.unsubscribe();
    s.stop();
  });

  test("an agent's exit is its own state: exited (never idle), then none; a wait for idle fails on it, one for exited ends", async () => {
    const s = await agentEvents();
    const claude = fakeClaude(home.dir);
    const { id } = await fux.new.mutate({ argv: ['/bin/sh'], cwd: home.dir });
    const [, , script, dir] = claude.argv;
    // The shell runs the fake agent as its foreground job; its end puts the shell back in front.
    await fux.sendKeys.mutate({ id, keys: [`ZOR_AGENT=claude /bin/sh -c '${script}' ${dir}`, 'Enter'] });
    await draw(id, 'working');
    await until(reached(s.events, id, 'working'), 20_000, 'working');
    // Typed-client waits: "started" means registered, so neither can miss the exit.
    const wait = (state: 'idle' | 'exited') =>
      new Promise<{ started: Promise<void>; result: Promise<unknown> }>((resolve) => {
        let started!: () => void;
        const startedP = new Promise<void>((r) => (started = r));
        const result = new Promise<unknown>((ok, fail) =>
          fux.wait.subscribe(
            { ids: [id], state },
            { onStarted: () => started(), onData: ok, onError: (e) => fail(e) },
          ),
        );
        resolve({ started: startedP, result });
      });
    const forIdle = await wait('idle');
    const forExit = await wait('exited');
    await forIdle.started;
    await forExit.started;
    const idleFailure = forIdle.result.then(
      () => 'reached idle',
      (e: Error) => e.message,
    );
    await fux.sendKeys.mutate({ id, keys: ['C-d'] });
    await until(reached(s.events, id, 'exited'), 20_000, 'exited');
    await until(reached(s.events, id, 'none'), 20_000, 'none');
    const states = s.events.filter((e) => e.id === id).map((e) => `${e.previous}→${e.state}`);
    expect(states.slice(-2)).toEqual(['working→exited', 'exited→none']);
    expect(await forExit.result).toMatchObject({ panes: [{ id, previous: 'working', state: 'exited' }] });
    expect(await idleFailure).toBe(`the agent in pane ${id} (claude) exited before it became idle`);
    s.stop();
  });
});
