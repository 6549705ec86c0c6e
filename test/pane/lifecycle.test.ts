import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pane } from '../../src/server/pane';
import { isAlive } from '../../src/process-alive';
import { disposeAll, exited, screen, shPane, testEnv, untilShown } from './pane-harness';

afterEach(disposeAll);

describe('a pane running a program', () => {
  test('reports the pid, argv and cwd it was started with', async () => {
    const pane = shPane('exit 0');
    expect(pane.pid).toBeGreaterThan(0);
    expect(pane.argv).toEqual(['/bin/sh', '-c', 'exit 0']);
    expect(pane.cwd).toBe('/tmp');
    await exited(pane);
  });

  test.each([0, 1, 3])('emits exit with code %i after the program exits with it', async (code) => {
    const pane = shPane(`exit ${code}`);
    await expect(exited(pane)).resolves.toEqual({ code, signal: null });
    expect(pane.exit).toEqual({ code, signal: null });
  });

  test('reports a death by signal as the signal number with no exit code', async () => {
    const pane = shPane('kill -TERM $$');
    await expect(exited(pane)).resolves.toEqual({ code: null, signal: 15 });
  });

  test('kill() sends SIGHUP by default, like a closed terminal', async () => {
    const pane = shPane('echo ready; exec sleep 100');
    await untilShown(pane, 'ready');
    pane.kill();
    await expect(exited(pane)).resolves.toEqual({ code: null, signal: 1 });
  });

  test('kill() sends the signal it is given', async () => {
    const pane = shPane('echo ready; exec sleep 100');
    await untilShown(pane, 'ready');
    pane.kill('SIGKILL');
    await expect(exited(pane)).resolves.toEqual({ code: null, signal: 9 });
  });

  test("captures printf 'last line'; exit 3 in full with code 3 in 20 of 20 runs", async () => {
    let whole = 0;
    for (let run = 0; run < 20; run++) {
      const pane = shPane("printf 'last line'; exit 3");
      const exit = await exited(pane);
      if (exit.code === 3 && screen(pane) === 'last line' + '\n'.repeat(23)) whole++;
      pane.dispose();
    }
    expect(whole).toBe(20);
  });

  test('parses the last line of a 2 MB burst before emitting exit, in 5 of 5 runs', async () => {
    // libuv can declare end-of-file on a pty while the kernel still holds output; before the
    // pane drained the fd itself, about one run in three lost the last few kilobytes here.
    let whole = 0;
    for (let run = 0; run < 5; run++) {
      const pane = shPane('seq 1 300000', { cols: 200, rows: 50 });
      await exited(pane);
      const lines = screen(pane).split('\n');
      if (lines[48] === '300000' && lines[47] === '299999') whole++;
      pane.dispose();
    }
    expect(whole).toBe(5);
  });

  test('write, resize and kill after the exit neither throw nor reach anything', async () => {
    const pane = shPane('exit 0');
    await exited(pane);
    expect(() => pane.write('echo hi\r')).not.toThrow();
    expect(() => pane.write(Buffer.from('echo hi\r'))).not.toThrow();
    expect(() => pane.resize(100, 30)).not.toThrow();
    expect(() => pane.kill('SIGKILL')).not.toThrow();
    expect(pane.exit).toEqual({ code: 0, signal: null });
  });

  test('dispose hangs up a running program and stops the events', async () => {
    const pane = shPane('echo ready; exec sleep 100');
    await untilShown(pane, 'ready');
    const events: string[] = [];
    pane.on('exit', () => events.push('exit'));
    pane.on('output', () => events.push('output'));
    const pid = pane.pid;
    pane.dispose();
    const deadline = Date.now() + 10_000;
    while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(isAlive(pid)).toBe(false);
    expect(events).toEqual([]);
  });
});

describe('starting a pane', () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'fux-pane-')));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const spawnIn = (argv: string[], cwd: string): Pane =>
    Pane.spawn({ argv, cwd, env: testEnv(), cols: 80, rows: 24, scrollback: 100 });

  test('fails with a clear error when the program does not exist', () => {
    expect(() => spawnIn(['nosuchcmd-fux-test'], dir)).toThrow("cannot run 'nosuchcmd-fux-test': not found");
    expect(() => spawnIn(['./missing'], dir)).toThrow("cannot run './missing': not found");
  });

  test('fails with a clear error when the program is not executable', () => {
    const script = path.join(dir, 'script');
    writeFileSync(script, 'echo hi\n', { mode: 0o644 });
    expect(() => spawnIn([script], dir)).toThrow(`cannot run '${script}': permission denied`);
  });

  test('fails with a clear error when the directory does not exist', () => {
    const missing = path.join(dir, 'gone');
    expect(() => spawnIn(['/bin/sh'], missing)).toThrow(
      `cannot run '/bin/sh': no such directory '${missing}'`,
    );
  });

  test('finds a program through the PATH of the environment it is given', async () => {
    const pane = Pane.spawn({
      argv: ['sh', '-c', 'echo "$TERM $COLORTERM"'],
      cwd: dir,
      env: { ...testEnv(), PATH: '/usr/bin:/bin' },
      cols: 80,
      rows: 24,
      scrollback: 100,
    });
    await exited(pane);
    // The program is talking to xterm.js, so TERM says so whatever the caller's terminal is.
    expect(screen(pane).split('\n')[0]).toBe('xterm-256color truecolor');
    pane.dispose();
  });

  test('currentCwd follows the foreground process into the directory it moved to', async () => {
    const pane = spawnIn(['/bin/sh', '-c', `cd '${dir}' && echo moved && exec sleep 100`], '/tmp');
    await untilShown(pane, 'moved');
    expect(pane.currentCwd()).toBe(dir);
    pane.kill();
    await exited(pane);
    expect(pane.currentCwd()).toBe('/tmp');
    pane.dispose();
  });
});
