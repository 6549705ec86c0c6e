import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './paths';

/**
 * Bundles the zor oclif commands from src/ into one script, so tests run the real command (flag
 * parsing, the wrapper, the exit) as a separate process without `npm run build` (which others
 * share). It lands in node_modules/.cache so packages and the package root resolve as from dist/,
 * named by a hash of the sources so parallel suites share one bundle and a change rebuilds it.
 */
const CACHE = join(REPO, 'node_modules', '.cache', 'zor-test');
const SOURCES = [join(REPO, 'src', 'zor'), join(REPO, 'src', 'pty'), join(REPO, 'src', 'commands', 'zor')];
/** Bundles of older sources are removed once they are this old (a suite elsewhere may still use one). */
const STALE_MS = 10 * 60 * 1000;

const ENTRY = `
const commands = {
  zor: require(${JSON.stringify(join(REPO, 'src/commands/zor/index.ts'))}).default,
  check: require(${JSON.stringify(join(REPO, 'src/commands/zor/check.ts'))}).default,
  agents: require(${JSON.stringify(join(REPO, 'src/commands/zor/agents.ts'))}).default,
  explain: require(${JSON.stringify(join(REPO, 'src/commands/zor/explain.ts'))}).default,
};
const [name, ...argv] = process.argv.slice(2);
commands[name].run(argv, ${JSON.stringify(REPO)}).catch((error) => require('@oclif/core').handle(error));
`;

function sourceHash(): string {
  const hash = createHash('sha1');
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.ts')) hash.update(path).update(readFileSync(path));
    }
  };
  SOURCES.forEach(visit);
  return hash.digest('hex').slice(0, 16);
}

function removeStale(keep: string): void {
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (path !== keep && Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
  }
}

let built: Promise<string> | undefined;

/** The path of a node script: `node SCRIPT zor|check|agents|explain ARGS…`. */
export function zorScript(): Promise<string> {
  built ??= (async () => {
    mkdirSync(CACHE, { recursive: true });
    const out = join(CACHE, `zor-${sourceHash()}.js`);
    if (existsSync(out)) return out;
    const partial = `${out}.${process.pid}.partial`;
    await build({
      stdin: { contents: ENTRY, resolveDir: REPO, loader: 'js' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      packages: 'external',
      outfile: partial,
      logLevel: 'error',
    });
    // Another suite may have finished the same bundle first; either copy is the same.
    renameSync(partial, out);
    removeStale(out);
    return out;
  })();
  return built;
}
