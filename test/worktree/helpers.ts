import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FuxHome } from '../helpers/home';

/** Who commits in the test repositories, and a HOME with no user config for git to read. */
export function gitIdentity(home: string): Record<string, string> {
  return {
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'fux test',
    GIT_AUTHOR_EMAIL: 'test@fux.invalid',
    GIT_COMMITTER_NAME: 'fux test',
    GIT_COMMITTER_EMAIL: 'test@fux.invalid',
  };
}

/** A fux home whose server (and the git it runs) sees only a temp HOME; `config` is its config.toml. */
export function worktreeHome(config = ''): FuxHome {
  const home = new FuxHome();
  const userHome = path.join(home.dir, 'home');
  fs.mkdirSync(userHome);
  Object.assign(home.env, gitIdentity(userHome));
  fs.mkdirSync(path.join(home.dir, 'config', 'fux'), { recursive: true });
  fs.writeFileSync(path.join(home.dir, 'config', 'fux', 'config.toml'), config);
  return home;
}

/** A repository at `dir` on branch main with one commit, and `files` written and committed. */
export function makeRepo(home: FuxHome, dir: string, files: Record<string, string>): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  gitIn(home, dir, ['init', '-q', '-b', 'main']);
  gitIn(home, dir, ['add', '-A']);
  gitIn(home, dir, ['commit', '-qm', 'first']);
}

export function gitIn(home: FuxHome, dir: string, args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: home.env, encoding: 'utf8' });
}
