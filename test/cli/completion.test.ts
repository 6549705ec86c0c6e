import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FuxHome, fuxBin } from '../helpers/home';

/**
 * Shell completion, driven as the shell drives it: the script `fux completion SHELL` prints is
 * loaded into a real shell, whose completion function is called with the words typed so far, and
 * it asks a real server (on a private socket) for pane ids and workspace names.
 */
// Each candidate list is a run of the CLI; on a loaded machine a run can take seconds.
jest.setTimeout(180_000);

let home: FuxHome;
let binDir: string;
let paneId: number;

beforeAll(async () => {
  home = new FuxHome();
  await home.startServer();
  // The scripts call `fux` by name, as an installed one is: put this tree's bin on the PATH.
  binDir = path.join(home.dir, 'bin');
  fs.mkdirSync(binDir);
  fs.symlinkSync(fuxBin, path.join(binDir, 'fux'));
  const client = await home.client();
  await client.workspace.new.mutate({ name: 'extra', cols: 80, rows: 24 });
  ({ id: paneId } = await client.new.mutate({ workspace: 'extra', argv: ['cat'], cwd: home.dir }));
});
afterAll(() => home.close());

const env = (): Record<string, string> => ({ ...home.env, PATH: `${binDir}:${process.env.PATH}` });

const hasShell = (shell: string): boolean => spawnSync(shell, ['-c', 'exit 0']).status === 0;

/** Run `script` in bash with fux's completion loaded; stdout, failing on a non-zero exit. */
function bash(script: string): string {
  const r = spawnSync('bash', ['-c', `source <(fux completion bash) || exit 9\n${script}`], {
    env: env(),
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (r.status !== 0) throw new Error(`bash exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** The candidates bash offers for the command line `words` (the last word being completed). */
function bashCandidates(...words: string[]): string[] {
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const out = bash(
    `COMP_WORDS=(fux ${quoted}); COMP_CWORD=${words.length}; _fux_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
  );
  return out.split('\n').filter(Boolean);
}

describe('fux completion', () => {
  test('prints a script for bash, zsh and fish that calls back into fux; refuses another shell', () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = home.cli(['completion', shell]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('fux completion --complete --');
    }
    expect(home.cli(['completion', 'zsh']).stdout).toMatch(/^#compdef fux$/m);
    expect(home.cli(['completion', 'fish']).stdout).toMatch(/^complete -c fux /m);
    const bad = home.cli(['completion', 'tcsh']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('fux completion bash');
  });

  test('bash: sourcing the script registers the completion for fux', () => {
    expect(bash('complete -p fux').trim()).toBe('complete -o default -F _fux_complete fux');
  });

  test('bash: fux spl<TAB> completes the verb', () => {
    expect(bashCandidates('spl')).toEqual(['split']);
  });

  test('bash: fux capture <TAB> offers the pane ids of the running server', () => {
    expect(bashCandidates('capture', '')).toContain(String(paneId));
    expect(bashCandidates('capture', '-w', 'extra', '')).toEqual([String(paneId)]);
  });

  test('bash: flags, their fixed values, topics and workspace names complete from the commands', () => {
    expect(bashCandidates('capture', '--scr')).toEqual(['--scrollback']);
    expect(bashCandidates('wait', '1', '--state', 'b')).toEqual(['blocked']);
    expect(bashCandidates('split', '')).toEqual(['h', 'v']);
    expect(bashCandidates('zor', 'ch')).toEqual(['check']);
    expect(bashCandidates('workspace', 'kill', '')).toEqual(expect.arrayContaining(['extra']));
    expect(bashCandidates('-w', 'ex')).toEqual(['extra']);
  });

  test('without a server, verbs still complete and pane ids are simply absent (none is started)', () => {
    const socket = path.join(home.dir, 'run', 'nobody.sock');
    const r = spawnSync(
      'bash',
      [
        '-c',
        `source <(fux completion bash); COMP_WORDS=(fux capture ''); COMP_CWORD=2; _fux_complete; echo "[\${COMPREPLY[*]}]"; COMP_WORDS=(fux ki); COMP_CWORD=1; _fux_complete; echo "\${COMPREPLY[*]}"`,
      ],
      { env: { ...env(), FUX_SOCKET: socket }, encoding: 'utf8', timeout: 30_000 },
    );
    expect(r.stdout.split('\n')).toEqual(['[]', 'kill kill-server', '']);
    expect(fs.existsSync(socket)).toBe(false);
  });

  (hasShell('zsh') ? test : test.skip)('zsh: the script loads and completes a verb', () => {
    const r = spawnSync(
      'zsh',
      [
        '-c',
        'autoload -U compinit && compinit -u && source <(fux completion zsh) && print -r -- $_comps[fux]',
      ],
      { env: env(), encoding: 'utf8', timeout: 30_000 },
    );
    expect(r.stdout.trim()).toBe('_fux_complete');
  });

  (hasShell('fish') ? test : test.skip)('fish: the script loads and completes a verb', () => {
    const r = spawnSync('fish', ['-c', 'fux completion fish | source; complete -C "fux spl"'], {
      env: env(),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.stdout).toMatch(/^split\t/m);
  });
});
