// seed 003 §7: `--debug` logs verdicts and changes to stderr; SIGUSR1 writes a fixture of what the
// rules see; `zor explain --pane PID` asks a running wrapper for one and explains it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFixture } from '../../../src/zor/fixture/fixture';
import { TEST_DATA, TEST_RULES } from '../support/paths';
import { until } from '../../helpers/wait-for';
import { zorScript } from '../support/zor-cli';
import { killRunning, runInPty } from '../support/zor-pty';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'zor-dump-'));
});
afterEach(() => {
  killRunning();
  rmSync(dir, { recursive: true, force: true });
});

const AGENT = join(TEST_DATA, 'children', 'bin', 'testagent');

async function startAgent(extra: string[] = [], redirect = '') {
  const zor = `'${process.execPath}' '${await zorScript()}' zor`;
  const args = ['--agent', 'testagent', '--rules', `'${TEST_RULES}'`, ...extra].join(' ');
  const inner = `echo "PID=$ZOR_PID"; exec '${AGENT}'`;
  const run = await runInPty(
    ['sh', '-c', `${zor} ${args} -- sh -c '${inner.replace(/'/g, `'\\''`)}' ${redirect}`],
    {
      bare: true,
      env: { TMPDIR: dir },
    },
  );
  await run.waitForText(/PID=\d+/);
  // zor announces after it has parsed and evaluated the screen.
  await run.waitForText('\x1b]7877;state=working;');
  return { run, pid: Number(/PID=(\d+)/.exec(run.text())![1]) };
}

it('logs verdicts, state changes and the agent to stderr under --debug', async () => {
  const log = join(dir, 'zor.log');
  const { run } = await startAgent(['--debug'], `2>'${log}'`);
  await until(
    () => readFileSync(log, 'utf8').includes('state none → working'),
    10_000,
    'the working state in the log',
  );
  run.write('x');
  await run.exited;
  const text = readFileSync(log, 'utf8');
  expect(text).toMatch(/^zor: rules testagent 1 from \S+testagent\.toml$/m);
  expect(text).toMatch(/^zor: agent testagent \(pid \d+\)$/m);
  expect(text).toMatch(
    /^zor: verdict working \(rule activity_line in bottom_non_empty\(12\)\) for testagent$/m,
  );
  expect(text).toMatch(/^zor: state none → working \[working\] seq 1$/m);
});

it('writes a fixture of the detection window on SIGUSR1', async () => {
  const { run, pid } = await startAgent();
  process.kill(pid, 'SIGUSR1');
  const file = await until(
    () => readdirSync(dir).find((name) => /^zor-\d+-1\.txt$/.test(name)),
    10_000,
    'the dump',
  );
  const fixture = parseFixture(readFileSync(join(dir, file), 'utf8'), file);
  expect(fixture).toMatchObject({
    agent: 'testagent',
    agentVersion: '0.0.1',
    title: 'Test Agent',
    expect: 'working',
    matched: 'activity_line',
    lines: ['❯ do the thing', '', '✶ Doing the thing…'],
  });
  expect(readFileSync(join(dir, file), 'utf8')).toMatch(/^# size: 100x30$/m);
  run.write('x');
  expect((await run.exited).exitCode).toBe(0);
});

it('explains a running pane with zor explain --pane', async () => {
  const { run, pid } = await startAgent();
  run.write('n');
  await run.waitForText('\x1b]7877;state=idle;');
  const output = execFileSync(
    process.execPath,
    [await zorScript(), 'explain', '--pane', String(pid), '--rules', TEST_RULES],
    {
      encoding: 'utf8',
      env: { ...process.env, TMPDIR: dir },
    },
  );
  expect(output).toMatch(/^verdict idle by prompt_box_idle$/m);
  expect(output).toMatch(/^=> \[950\] prompt_box_idle: idle, region prompt_box, MATCHES$/m);
  run.write('x');
  await run.exited;
});
