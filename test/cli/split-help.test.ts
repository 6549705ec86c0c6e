import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { root } from '../helpers/home';

// `split v`/`h` name the line between the panes, the reverse of tmux's `-h`/`-v`: the help says so.
test("split's help says which of tmux's flags each letter is", () => {
  const r = spawnSync(process.execPath, [path.join(root, 'bin', 'fux'), 'split', '--help'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, FUX_SOCKET: path.join(root, 'no-such-dir', 'fux.sock'), OCLIF_COLUMNS: '300' },
  });
  expect(r.status).toBe(0);
  expect(r.stdout).toContain("v: side by side (tmux's -h); h: stacked (tmux's -v)");
  expect(r.stdout).toContain(
    '`fux split v` is `tmux split-window -h`, `fux split h` is `tmux split-window -v`',
  );
}, 120_000);
