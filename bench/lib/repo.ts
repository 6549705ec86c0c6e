import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The repository root. The bench runs both from `bench/` (type-checked in place) and from a bundle
 * somewhere under `node_modules/.cache`; without npm's word for it, the root is found by walking up
 * to fux's package.json.
 */
function findRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const { name } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: unknown };
      if (name === 'fux') return dir;
    }
    if (path.dirname(dir) === dir) throw new Error(`no fux package.json above ${start}`);
  }
}

// `npm run bench` names the package it runs for; the bundle's own path may not be in that tree
// (a git worktree whose node_modules links to another checkout would find that checkout).
const npmPackage = process.env.npm_package_json;
export const repoRoot = npmPackage ? path.dirname(npmPackage) : findRoot(__dirname);
export const fuxBin = path.join(repoRoot, 'bin', 'fux');
export const serverMain = path.join(repoRoot, 'dist', 'server', 'main.js');
export const tmuxBin = '/usr/bin/tmux';

/** The bench drives the built server and CLI, as a user would; say how to get them if missing. */
export function assertReady(): void {
  for (const file of [serverMain, path.join(repoRoot, 'dist', 'commands', 'list.js')]) {
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  }
  if (!fs.existsSync(tmuxBin))
    throw new Error(`${tmuxBin} is missing: the bench compares with tmux (apt install tmux)`);
}
