// seed 001 "Identification" and "Out-of-band: event lines", end to end: zor wraps a shell, an
// agent starts in it and is identified from the pty's foreground job, its states arrive as event
// lines, and its exit is an exited idle, then none; `--events -` writes to fd 3.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_DATA, TEST_RULES } from '../support/paths';
import { until } from '../../helpers/wait-for';
import { zorScript } from '../support/zor-cli';
import { killRunning, runInPty } from '../support/zor-pty';

let dir: string;
let server: Server | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'zor-events-e2e-'));
});
afterEach(() => {
  killRunning();
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

type Line = Record<string, unknown>;

async function listen(path: string): Promise<Line[]> {
  const lines: Line[] = [];
  server = createServer((connection) => {
    let buffered = '';
    connection.on('data', (data) => {
      buffered += data.toString();
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(buffered.slice(0, newline)) as Line);
        buffered = buffered.slice(newline + 1);
      }
    });
  });
  await new Promise<void>((resolve) => server!.listen(path, resolve));
  return lines;
}

/** State changes only (heartbeats repeat a seq and carry no `previous`). */
function transitions(lines: readonly Line[]): string[] {
  return lines
    .filter((line) => line.t === 'state' && 'previous' in line)
    .map((line) => `${String(line.previous)}→${String(line.state)}${line.exited === true ? '(exited)' : ''}`);
}

it('identifies an agent started in the wrapped shell and streams its states as event lines', async () => {
  const socket = join(dir, 'events.sock');
  const lines = await listen(socket);
  const shell = `echo READY; read _; testagent; echo BACK; read _`;
  const run = await runInPty(['--events', socket, '--rules', TEST_RULES, '--', 'sh', '-c', shell], {
    env: { PATH: `${join(TEST_DATA, 'children', 'bin')}:${process.env.PATH}` },
  });
  await run.waitForText('READY');
  run.write('\r');
  await until(() => transitions(lines).includes('none→working'), 10_000, 'working');
  const found = lines.find((line) => line.t === 'agent' && line.agent === 'testagent');
  expect(found).toMatchObject({ agent: 'testagent', pid: expect.any(Number) });
  run.write('n');
  await until(() => transitions(lines).includes('working→idle'), 10_000, 'idle once the prompt is drawn');
  run.write('x');
  await run.waitForText('BACK');
  await until(() => transitions(lines).includes('exited→none'), 10_000, 'none after the exit');
  run.write('\r');
  expect((await run.exited).exitCode).toBe(0);
  await until(() => lines.some((line) => line.t === 'exit'), 10_000, 'the exit line');

  expect(transitions(lines)).toEqual(['none→working', 'working→idle', 'idle→exited(exited)', 'exited→none']);
  const working = lines.find((line) => line.state === 'working' && 'previous' in line)!;
  expect(working).toMatchObject({ agent: 'testagent', visible: ['working'], title: 'Test Agent' });
  expect(lines.filter((line) => line.t === 'agent').map((line) => line.agent)).toEqual(['testagent', null]);
  expect(lines[lines.length - 1]).toMatchObject({ t: 'exit', code: 0 });
  // In-band, the same changes went out as OSC 7877.
  expect(run.text()).toContain('\x1b]7877;state=working;agent=testagent;');
  expect(run.text()).toContain('\x1b]7877;state=exited;agent=testagent;seq=3;exited=1\x1b\\');
});

it('writes event lines to fd 3 with --events -', async () => {
  const file = join(dir, 'events.jsonl');
  const zor = `'${process.execPath}' '${await zorScript()}' zor`;
  const run = await runInPty(
    [
      'sh',
      '-c',
      `${zor} --events - --agent testagent --rules '${TEST_RULES}' -- sh -c 'echo hi' 3>'${file}'`,
    ],
    { bare: true },
  );
  expect((await run.exited).exitCode).toBe(0);
  const lines = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
  expect(lines[0]).toMatchObject({ t: 'agent', agent: 'testagent' });
  expect(lines[lines.length - 1]).toMatchObject({ t: 'exit', code: 0 });
});

it('refuses an --events path that is not a socket or fifo, saying so', async () => {
  const run = await runInPty(['--events', join(dir, 'missing'), '--', 'true']);
  expect((await run.exited).exitCode).toBe(2);
  expect(run.text()).toContain('no such socket or fifo');
});
