import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { root } from '../helpers/home';

/**
 * The package as a newcomer gets it (README, "Installing"): `npm pack`, then `npm install -g` of the
 * tarball, here into a temporary prefix. The installed `fux` and `zor` must run from there alone,
 * which proves the package carries what it needs: dist, the rules, the manifest, node-pty's build.
 * npm takes the dependencies from its cache (the project's own install filled it) and goes to the
 * registry only for what the cache lacks.
 */
jest.setTimeout(600_000);

let dir: string;
let prefix: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-install-'));
  prefix = path.join(dir, 'prefix');
  // dist/ is built (npm test builds it first): pack it as it is.
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
    }),
  ) as { filename: string }[];
  const tarball = path.join(dir, packed[0]!.filename);
  execFileSync(
    'npm',
    [
      'install',
      '-g',
      '--prefix',
      prefix,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      tarball,
    ],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
});

afterAll(() => {
  const socket = path.join(dir, 'run', 'fux.sock');
  if (fs.existsSync(socket)) run('fux', ['kill-server']);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Run an installed command with a private runtime dir, from a directory outside the clone. */
function run(bin: 'fux' | 'zor', args: string[]): { code: number | null; stdout: string; stderr: string } {
  const runtime = path.join(dir, 'run');
  fs.mkdirSync(runtime, { recursive: true, mode: 0o700 });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('FUX_')) env[k] = v;
  const r = spawnSync(path.join(prefix, 'bin', bin), args, {
    cwd: dir,
    env: {
      ...env,
      FUX_SOCKET: path.join(runtime, 'fux.sock'),
      XDG_STATE_HOME: path.join(dir, 'state'),
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      SHELL: '/bin/sh',
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the packed tarball, installed with npm install -g', () => {
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    version: string;
  };

  test('fux --version and zor --version name themselves and the version', () => {
    expect(run('fux', ['--version']).stdout).toMatch(new RegExp(`^fux/${version.replace(/\./g, '\\.')} `));
    expect(run('zor', ['--version']).stdout).toMatch(new RegExp(`^zor/${version.replace(/\./g, '\\.')} `));
  });

  test('fux new and fux list start a server from the installed package and run a pane in it', () => {
    const opened = run('fux', ['new', '--', 'sh', '-c', 'exec cat']);
    expect(opened).toMatchObject({ code: 0, stderr: '' });
    const listed = run('fux', ['list']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(listed.stdout).toMatch(new RegExp(`^\\s+\\*\\s+${opened.stdout.trim()}\\s.*sh -c exec cat`, 'm'));
  });

  test('zor relays through the native relay its postinstall compiled (where a C compiler exists)', () => {
    const relayed = run('zor', ['--debug', '--', 'sh', '-c', 'echo relayed']);
    expect(relayed.code).toBe(0);
    expect(relayed.stdout).toContain('relayed');
    const compiler = ['cc', 'gcc', 'clang'].some((cc) => spawnSync(cc, ['--version']).status === 0);
    expect(relayed.stderr).toContain(
      compiler
        ? `output relayed by ${path.join(prefix, 'lib', 'node_modules', 'fux', 'native', 'build', 'zor-relay')}`
        : 'output relayed through node-pty',
    );
  });

  test('zor check reads a fixture with the bundled rules', () => {
    const checked = run('zor', ['check', path.join(root, 'fixtures', 'claude', 'permission-bash.txt')]);
    expect(checked).toMatchObject({ code: 0, stderr: '' });
    expect(checked.stdout).toMatch(/^blocked /);
  });
});
