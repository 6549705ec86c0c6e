// seed 001 "Architecture": screen view, identification, rules and hysteresis together, with an
// xterm terminal, a scripted process table and a fake clock.
import { Detector, type DetectorEvent } from '../../src/zor/detector';
import { AgentProbe } from '../../src/zor/ident/agent-probe';
import { loadRuleFile } from '../../src/zor/rules/load';
import { XtermScreenView } from '../../src/zor/screen/xterm-screen-view';
import type { StateChange } from '../../src/zor/state/state-machine';
import { join } from 'node:path';
import { TEST_RULES } from './support/paths';
import { proc, ScriptedProcessTable } from './support/scripted-process-table';
import { feed, makeTerminal } from './support/terminal';

const SET = loadRuleFile(join(TEST_RULES, 'testagent.toml'));
const SHELL = 10;
const AGENT = 20;
const RULE = '─'.repeat(40);
const PROMPT = `\x1b[H\x1b[2Jhello\r\n${RULE}\r\n❯ \r\n${RULE}\r\n`;
const SPINNER = `\x1b[H\x1b[2J❯ do it\r\n\r\n✶ Working on it…\r\n`;

function transitions(events: readonly DetectorEvent[]): string[] {
  return events
    .filter((event): event is StateChange => event.kind === 'changed')
    .map((event) => `${event.previous}→${event.state}${event.exited ? '(exited)' : ''}`);
}

function setup() {
  const terminal = makeTerminal(60, 10);
  const screen = new XtermScreenView(terminal);
  const table = new ScriptedProcessTable(SHELL);
  table.foreground(SHELL, proc(SHELL, 'bash', ['-bash']));
  const probe = new AgentProbe({ table, sets: [SET], child: SHELL, now: 0, resolvePath: () => undefined });
  const detector = new Detector({ screen, sets: [SET], now: 0, probe });
  let now = 0;
  /** Steps at every deadline up to `until`, collecting events. */
  const runUntil = (until: number): DetectorEvent[] => {
    const events: DetectorEvent[] = [];
    while (detector.nextDeadline() <= until) {
      now = Math.max(now, detector.nextDeadline());
      events.push(...detector.step(now));
    }
    now = until;
    return events;
  };
  const output = async (data: string): Promise<DetectorEvent[]> => {
    await feed(terminal, data);
    return detector.step(now);
  };
  return { terminal, table, detector, runUntil, output };
}

describe('Detector', () => {
  it('stays none in a plain shell whatever it draws', async () => {
    const { runUntil, output } = setup();
    runUntil(0);
    expect(transitions(await output(SPINNER))).toEqual([]);
    expect(transitions(runUntil(10_000))).toEqual([]);
  });

  it('goes none → working → idle → exited → none over an agent session', async () => {
    const { table, runUntil, output, detector } = setup();
    runUntil(0);
    await output(PROMPT);
    table.foreground(AGENT, proc(AGENT, 'testagent', ['testagent']));
    // Identified at the next 500 ms tick; the prompt's idle is swallowed by the 3 s grace.
    const early = runUntil(2000);
    expect(early.filter((event) => event.kind === 'agent-found')).toEqual([
      { kind: 'agent-found', agent: 'testagent', pid: AGENT },
    ]);
    expect(transitions(early)).toEqual([]);
    expect(transitions(runUntil(3600))).toEqual(['none→idle']);
    expect(transitions(await output(SPINNER))).toEqual(['idle→working']);
    // The spinner goes and no prompt is drawn: a plain idle, held for about 300 ms.
    expect(transitions(await output('\x1b[H\x1b[2J⏺ Done.\r\n'))).toEqual([]);
    expect(detector.published.state).toBe('working');
    expect(transitions(runUntil(4100))).toEqual(['working→idle']);
    table.foreground(SHELL, proc(SHELL, 'bash', ['-bash']));
    expect(transitions(runUntil(4500))).toEqual(['idle→exited(exited)', 'exited→none']);
  });

  it("names a visible blocker's question by the first line of the region its rule read, and nothing otherwise", async () => {
    const { table, runUntil, output, detector } = setup();
    runUntil(0);
    table.foreground(AGENT, proc(AGENT, 'testagent', ['testagent']));
    runUntil(1000);
    const dialog = `\x1b[H\x1b[2J${RULE}\r\n\r\n  Pick a colour  \r\n 1. Red\r\n Enter to select · Esc to cancel\r\n`;
    expect(transitions(await output(dialog))).toEqual(['none→blocked']);
    expect(detector.blockerQuestion()).toBe('Pick a colour');
    await output(SPINNER);
    expect(detector.blockerQuestion()).toBeUndefined();
  });

  it('prefers the line that asks, and reads it out of the box the prompt is drawn in', async () => {
    const { table, runUntil, output, detector } = setup();
    runUntil(0);
    table.foreground(AGENT, proc(AGENT, 'testagent', ['testagent']));
    runUntil(1000);
    const dialog = `\x1b[H\x1b[2J${RULE}\r\n\r\n│ Bash command │\r\n│ Run it now? │\r\n 1. Yes\r\n Enter to select · Esc to cancel\r\n`;
    expect(transitions(await output(dialog))).toEqual(['none→blocked']);
    expect(detector.blockerQuestion()).toBe('Run it now?');
  });

  it('publishes a visible prompt at once, skipping the hold', async () => {
    const { table, runUntil, output } = setup();
    table.foreground(AGENT, proc(AGENT, 'testagent', ['testagent']));
    // An empty screen at the end of the grace is the idle fallback.
    expect(transitions(runUntil(3000))).toEqual(['none→idle']);
    expect(transitions(await output(SPINNER))).toEqual(['idle→working']);
    expect(transitions(await output(PROMPT))).toEqual(['working→idle']);
  });

  it('lets a permission prompt through during the startup grace', async () => {
    const { table, runUntil, output } = setup();
    table.foreground(AGENT, proc(AGENT, 'testagent', ['testagent']));
    runUntil(100);
    const events = await output(
      '\x1b[H\x1b[2J Bash command\r\n   touch x\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n',
    );
    expect(transitions(events)).toEqual(['none→blocked']);
  });

  it('keeps the state through a skip screen', async () => {
    const { table, runUntil, output } = setup();
    table.foreground(AGENT, proc(AGENT, 'testagent', ['testagent']));
    runUntil(3000);
    await output(SPINNER);
    expect(transitions(await output('\x1b[H\x1b[2Jtranscript\r\nShowing detailed transcript\r\n'))).toEqual(
      [],
    );
    expect(transitions(runUntil(6000))).toEqual([]);
  });

  it('uses a forced agent from the first step, without a probe', async () => {
    const terminal = makeTerminal(60, 10);
    const detector = new Detector({
      screen: new XtermScreenView(terminal),
      sets: [SET],
      now: 0,
      forcedAgent: { agent: 'testagent', pid: 99 },
    });
    await feed(terminal, SPINNER);
    const events = detector.step(0);
    expect(events[0]).toEqual({ kind: 'agent-found', agent: 'testagent', pid: 99 });
    expect(transitions(events)).toEqual(['none→working']);
  });

  it('reports each new raw verdict once', async () => {
    const { table, runUntil, output } = setup();
    table.foreground(AGENT, proc(AGENT, 'testagent', ['testagent']));
    runUntil(3000);
    const verdicts = [...(await output(SPINNER)), ...(await output(SPINNER)), ...runUntil(5000)].filter(
      (event) => event.kind === 'verdict',
    );
    expect(verdicts).toEqual([
      expect.objectContaining({ verdict: expect.objectContaining({ rule: 'activity_line' }) }),
    ]);
  });
});
