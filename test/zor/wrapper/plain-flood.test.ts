import { join } from 'node:path';
import { PlainFlood } from '../../../src/zor/wrapper/plain-flood';
import { TEST_DATA, TEST_RULES } from '../support/paths';
import { killRunning, runInPty } from '../support/zor-pty';

afterEach(killRunning);

const lines = (count: number): Buffer => Buffer.from('x\r\n'.repeat(count));

describe('PlainFlood', () => {
  test('goes on while plain text with enough line feeds keeps coming', () => {
    const flood = new PlainFlood(10);
    flood.childOutput(lines(6), 0);
    flood.childOutput(lines(6), 0);
    expect(flood.goingOn()).toBe(true);
    flood.childOutput(lines(1), 0);
    expect(flood.goingOn()).toBe(true);
  });

  test('is not a flood before enough line feeds (a plain spinner or prompt)', () => {
    const flood = new PlainFlood(10);
    flood.childOutput(Buffer.from('\r|\r/\r-'), 0);
    expect(flood.goingOn()).toBe(false);
    flood.childOutput(lines(9), 0);
    expect(flood.goingOn()).toBe(false);
  });

  test('ends once output stops for two looks in a row, not one', () => {
    const flood = new PlainFlood(10);
    flood.childOutput(lines(20), 0);
    expect(flood.goingOn()).toBe(true);
    expect(flood.goingOn()).toBe(true);
    expect(flood.goingOn()).toBe(false);
  });

  test('is over for good after output that is not plain text', () => {
    const flood = new PlainFlood(10);
    flood.childOutput(lines(20), 0);
    const coloured = Buffer.from('\x1b[1mbold\x1b[0m\r\n');
    flood.childOutput(coloured, coloured.length);
    expect(flood.goingOn()).toBe(false);
    flood.childOutput(lines(20), 0);
    expect(flood.goingOn()).toBe(false);
  });

  test('is no flood without output', () => {
    expect(new PlainFlood(10).goingOn()).toBe(false);
  });
});

describe('a plain flood under zor', () => {
  it('delays detection, not what it finds: the agent started after the flood is identified and announced', async () => {
    const agent = join(TEST_DATA, 'children', 'bin', 'testagent');
    // No --agent, --events or --debug: the cases where detection may wait for the flood to end.
    const run = await runInPty(['--rules', TEST_RULES, '--', 'sh', '-c', `seq 1 50000; exec '${agent}'`]);
    await run.waitForText('\x1b]7877;state=working;agent=testagent;');
    run.write('x');
    expect((await run.exited).exitCode).toBe(0);
    expect(run.text()).toContain('49999\r\n50000\r\n');
  });
});
