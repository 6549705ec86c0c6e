// The server gives memory back once it goes quiet after its panes flooded and closed: a full
// collection (the server runs with --expose-gc) and glibc's malloc_trim through the addon that
// scripts/build-native.js compiles (src/server/memory/). Without it a server that flooded 40 panes
// and closed them stayed at ~200 MiB resident with 15 MiB of live heap (docs/benchmarks.md, B10).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FuxHome, root, until } from '../helpers/home';

const ADDON = path.join(root, 'native', 'build', 'malloc-trim.node');
const GIVEN_BACK = /memory given back: resident ([\d.]+) → ([\d.]+) MiB/g;

let home: FuxHome;
beforeEach(() => {
  home = new FuxHome();
});
afterEach(() => home.close());

const log = (): string => fs.readFileSync(path.join(home.env.XDG_STATE_HOME, 'fux', 'server.log'), 'utf8');

/** What scripts/build-native.js needs for the addon: Linux, a C compiler, Node's headers. */
const canBuild =
  process.platform === 'linux' &&
  ['cc', 'gcc', 'clang'].some((c) => spawnSync(c, ['--version']).status === 0) &&
  fs.existsSync(path.join(path.dirname(process.execPath), '..', 'include', 'node', 'node_api.h'));

(canBuild ? test : test.skip)('the build compiled the allocator trim addon, and it loads', () => {
  expect(fs.existsSync(ADDON)).toBe(true);
  const addon: { exports: { trim?: () => boolean } } = { exports: {} };
  process.dlopen(addon, ADDON);
  expect(typeof addon.exports.trim?.()).toBe('boolean');
});

test('closing flooded panes gives their memory back to the system once the server is quiet', async () => {
  home.cli(['list']); // the server as the CLI starts it, with its node options
  const fux = await home.client();
  await fux.workspace.new.mutate({ name: 'mem', cols: 200, rows: 50 });
  // Styled rows (a colour to the margin) so the history is held in full, then a marker.
  const flood = `i=0; while [ $i -lt 4000 ]; do printf '\\033[41m%0199d\\033[0m\\n' $i; i=$((i+1)); done; echo flooded; exec sleep 600`;
  const ids: number[] = [];
  for (let i = 0; i < 4; i++) {
    ids.push((await fux.tab.new.mutate({ workspace: 'mem', argv: ['sh', '-c', flood], cwd: home.dir })).id);
  }
  for (const id of ids) {
    await until(
      async () => (await fux.capture.query({ workspace: 'mem', id })).text.includes('flooded'),
      60_000,
      `pane ${id} to finish its flood`,
    );
  }
  const before = log().length;
  for (const id of ids) await fux.kill.mutate({ workspace: 'mem', id });

  const returned = await until(
    () => [...log().slice(before).matchAll(GIVEN_BACK)].at(-1),
    30_000,
    'the server to log that it gave memory back',
  );
  const [residentBefore, residentAfter] = [Number(returned[1]), Number(returned[2])];
  expect(residentAfter).toBeLessThan(residentBefore);
}, 120_000);
