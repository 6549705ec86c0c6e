// The library surface the fux server uses (issue 3): a detector over a Terminal the caller owns,
// built from src/zor's index alone, and OSC 7877 parsed from a pane.
import {
  AgentProbe,
  buildStateOsc,
  Detector,
  loadRuleDirectories,
  parseStateOsc,
  STATE_OSC_NUMBER,
  XtermScreenView,
  type StateChange,
} from '../../src/zor';
import { TEST_RULES } from './support/paths';
import { proc, ScriptedProcessTable } from './support/scripted-process-table';
import { feed, makeTerminal } from './support/terminal';

it('runs a detector on a terminal the caller owns and feeds', async () => {
  const terminal = makeTerminal(80, 24);
  const sets = loadRuleDirectories([{ dir: TEST_RULES, origin: 'flag' }]).sets.map((entry) => entry.set);
  const table = new ScriptedProcessTable(20);
  table.foreground(20, proc(20, 'testagent', ['testagent']));
  const detector = new Detector({
    screen: new XtermScreenView(terminal),
    sets,
    now: 0,
    probe: new AgentProbe({ table, sets, child: 10, now: 0 }),
  });
  await feed(terminal, '✶ Thinking about it…\r\n');
  const changes = detector.step(0).filter((event): event is StateChange => event.kind === 'changed');
  expect(changes).toEqual([expect.objectContaining({ state: 'working', agent: 'testagent', seq: 1 })]);
  expect(detector.nextDeadline()).toBeGreaterThan(0);
});

it("reads a pane's own OSC 7877 through the terminal's parser", async () => {
  const terminal = makeTerminal(80, 24);
  const reports: unknown[] = [];
  terminal.parser.registerOscHandler(STATE_OSC_NUMBER, (data) => {
    reports.push(parseStateOsc(data));
    return true;
  });
  const visible = { idle: false, blocker: true, working: false };
  await feed(terminal, buildStateOsc({ state: 'blocked', agent: 'claude', seq: 4, visible, exited: false }));
  expect(reports).toEqual([
    { state: 'blocked', agent: 'claude', seq: 4, visible, exited: false, message: undefined },
  ]);
});
