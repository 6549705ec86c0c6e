import { FuxHome, openAndDrop, until } from '../helpers/home';
import { isAlive } from '../../src/process-alive';
import type { FuxClient } from '../../src/client';

let home: FuxHome;
let fux: FuxClient;
beforeEach(async () => {
  home = new FuxHome();
  await home.startServer();
  fux = await home.client();
});
afterEach(() => home.close());

test('a pane writing /dev/urandom for 10 seconds: no crash, and another pane keeps echoing', async () => {
  await fux.workspace.new.mutate({ name: 'main', cols: 200, rows: 50 });
  // Random bytes leave the terminal in a random state: inside a string sequence that swallows what
  // follows, or with DEC line drawing as the charset, which draws `urandom-done` as glyphs. CAN
  // ends any sequence and RIS resets the charsets before the marker, as a user's `reset` would.
  const noisy = await fux.new.mutate({
    argv: ['sh', '-c', 'timeout 10 cat /dev/urandom; printf "\\030\\033c"; echo urandom-done; sleep 30'],
  });
  const quiet = await fux.new.mutate({ argv: ['cat'] });
  // Echo round trips through the quiet pane while the noisy one floods; count them.
  let echoes = 0;
  const finished = async (): Promise<boolean> =>
    (await fux.capture.query({ id: noisy.id })).text.includes('urandom-done');
  while (!(await finished())) {
    const word = `echo-${echoes}`;
    await fux.sendKeys.mutate({ id: quiet.id, keys: [word, 'Enter'] });
    await until(
      async () => (await fux.capture.query({ id: quiet.id })).text.includes(word),
      10_000,
      `the echo of ${word}`,
    );
    echoes++;
  }
  process.stdout.write(`urandom: ${echoes} echoes answered in the other pane during the flood\n`);
  expect(echoes).toBeGreaterThan(5);
  expect(isAlive(home.serverPid()!)).toBe(true);
  expect((await fux.list.query({})).workspaces[0].panes.map((p) => p.id)).toEqual([noisy.id, quiet.id]);
}, 60_000);

test('2000 connections opened and dropped while 10 list calls run: every list call succeeds', async () => {
  const flood = openAndDrop(home.socket, 2000);
  const results: string[] = [];
  const lists = (async () => {
    // Asynchronous CLI runs, so the flood in this process goes on while each one connects.
    for (let i = 0; i < 10; i++) {
      const child = home.spawnCli(['list', '--json']);
      let err = '';
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((r) => child.on('exit', r));
      results.push(code === 0 ? 'ok' : err);
    }
  })();
  const [opened] = await Promise.all([flood, lists]);
  process.stdout.write(
    `flood: ${opened} of 2000 connections accepted and dropped; ${results.length} list calls\n`,
  );
  expect(results).toEqual(Array(10).fill('ok'));
}, 120_000);
