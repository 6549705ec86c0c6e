// seed 003 §5 and DESIGN.md §10: exit codes and signal deaths propagate, the terminal's mode is
// raw while zor runs and restored on every exit path, the window size (pixels included) and
// SIGWINCH reach the child, nesting, and output written just before an exit is not lost.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ptsName, setPtySize } from '../support/pty-size';
import { TEST_DATA } from '../support/paths';
import { zorScript } from '../support/zor-cli';
import { killRunning, runInPty, type PtyRun } from '../support/zor-pty';

afterEach(killRunning);

const zorCommand = async () => `'${process.execPath}' '${await zorScript()}' zor`;

describe('exit status', () => {
  it.each([0, 1, 3])('exits %i when the child does', async (code) => {
    const run = await runInPty(['--', 'sh', '-c', `exit ${code}`]);
    expect(await run.exited).toEqual({ exitCode: code, signal: 0 });
  });

  it.each([
    ['SIGTERM', 15],
    ['SIGKILL', 9],
    ['SIGSEGV', 11],
  ])('dies of %s when the child does', async (name, number) => {
    const run = await runInPty(['--', 'sh', '-c', `kill -${name.slice(3)} $$`]);
    expect((await run.exited).signal).toBe(number);
  });

  it('reports a missing command as not found, exit 127', async () => {
    const run = await runInPty(['--', 'no-such-command-zor-test']);
    expect((await run.exited).exitCode).toBe(127);
    expect(run.text()).toContain('no-such-command-zor-test: command not found');
  });

  it('keeps output the child wrote just before exiting', async () => {
    const run = await runInPty(['--', 'sh', '-c', 'printf "%s" "last words"; exit 4']);
    expect((await run.exited).exitCode).toBe(4);
    expect(run.text()).toContain('last words');
  });
});

describe('terminal mode', () => {
  /** Runs zor from a shell in the pty that prints `stty -g` before and after it. */
  async function aroundZor(zorArgs: string, act?: (run: PtyRun) => Promise<void>) {
    const script = `stty -g; echo BEFORE; ${await zorCommand()} ${zorArgs}; echo "AFTER status $?"; stty -g; echo END`;
    const run = await runInPty(['sh', '-c', script], { bare: true });
    await run.waitForText('BEFORE');
    if (act) await act(run);
    await run.waitForText('END');
    const lines = run.text().split(/\r?\n/);
    return {
      before: lines[lines.indexOf('BEFORE') - 1],
      after: lines[lines.findIndex((line) => line.startsWith('AFTER')) + 1],
      status: /AFTER status (\d+)/.exec(run.text())![1],
    };
  }

  it('is raw while the child runs', async () => {
    const run = await runInPty(['--', 'sh', '-c', 'echo RUNNING; read _']);
    await run.waitForText('RUNNING');
    const modes = execFileSync('stty', ['-F', ptsName(run.terminal), '-a'], { encoding: 'utf8' });
    expect(modes).toMatch(/-icanon/);
    expect(modes).toMatch(/-echo /);
    run.write('\r');
    await run.exited;
  });

  it('is restored after a normal exit', async () => {
    const { before, after, status } = await aroundZor(`-- sh -c 'exit 0'`);
    expect(status).toBe('0');
    expect(after).toBe(before);
  });

  it('is restored after the child dies of a signal', async () => {
    const { before, after, status } = await aroundZor(`-- sh -c 'kill -TERM $$'`);
    expect(status).toBe('143');
    expect(after).toBe(before);
  });

  it('is restored when zor is sent SIGTERM, which it passes to the child', async () => {
    const { before, after, status } = await aroundZor(
      // ZOR_PID is zor's own pid (the child's parent is the native relay, when zor has one).
      `-- sh -c 'echo CHILD OF $ZOR_PID; exec sleep 30'`,
      async (run) => {
        await run.waitForText(/CHILD OF \d+/);
        process.kill(Number(/CHILD OF (\d+)/.exec(run.text())![1]), 'SIGTERM');
      },
    );
    expect(status).toBe('143');
    expect(after).toBe(before);
  });
});

describe('window size', () => {
  it('gives the child the terminal size with pixels, and forwards a resize', async () => {
    const run = await runInPty(['--', process.execPath, join(TEST_DATA, 'children', 'report-size.js')], {
      held: true,
    });
    setPtySize(ptsName(run.terminal), 40, 120, 1200, 800);
    run.start();
    await run.waitForText('size:40 120 1200 800', 'the starting size with pixels');
    // Setting the size of zor's terminal sends zor SIGWINCH, as a terminal emulator's resize does.
    setPtySize(ptsName(run.terminal), 50, 200, 2000, 1000);
    await run.waitForText('size:50 200 2000 1000', 'the new size after SIGWINCH');
    run.write('q');
    expect((await run.exited).exitCode).toBe(0);
  });
});

describe('nesting', () => {
  it('sets ZOR_PID, and a nested zor runs its command on the same terminal without a second pty', async () => {
    const inner = `echo "inner ZOR_PID=$ZOR_PID tty=$(tty)"`;
    const outer = `echo "outer ZOR_PID=$ZOR_PID tty=$(tty)"; ${await zorCommand()} -- sh -c '${inner}'`;
    const run = await runInPty(['--', 'sh', '-c', outer]);
    expect((await run.exited).exitCode).toBe(0);
    const seen = (who: string) => new RegExp(`${who} ZOR_PID=(\\d+) tty=(\\S+)`).exec(run.text())!;
    const [, outerPid, outerTty] = seen('outer');
    const [, innerPid, innerTty] = seen('inner');
    expect(Number(outerPid)).toBeGreaterThan(0);
    expect(innerPid).toBe(outerPid);
    expect(innerTty).toBe(outerTty);
    expect(outerTty).not.toBe(ptsName(run.terminal));
  });
});

describe('input end', () => {
  it('ends the child input when its own piped stdin ends', async () => {
    const script = await zorScript();
    const output = execFileSync(process.execPath, [script, 'zor', '--', 'sh', '-c', 'cat; echo "cat done"'], {
      input: 'piped line\n',
      encoding: 'utf8',
      env: { ...process.env, ZOR_PID: '' },
      timeout: 20_000,
    });
    expect(output).toContain('piped line');
    expect(output).toContain('cat done');
  });
});
