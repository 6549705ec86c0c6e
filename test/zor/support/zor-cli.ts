import { build } from 'esbuild';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './paths';

/**
 * Bundles the zor oclif commands from src/ into one script, so tests run the real command (flag
 * parsing, the wrapper, the exit) as a separate process without `npm run build` (which others
 * share). It lands in node_modules/.cache so packages and the package root resolve as from dist/.
 */
const CACHE = join(REPO, 'node_modules', '.cache', 'zor-test');

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

let built: Promise<string> | undefined;

/** The path of a node script: `node SCRIPT zor|check|agents|explain ARGS…`. */
export function zorScript(): Promise<string> {
  built ??= (async () => {
    mkdirSync(CACHE, { recursive: true });
    const out = join(CACHE, `zor-${process.pid}.js`);
    await build({
      stdin: { contents: ENTRY, resolveDir: REPO, loader: 'js' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      packages: 'external',
      outfile: `${out}.partial`,
      logLevel: 'error',
    });
    renameSync(`${out}.partial`, out);
    process.once('exit', () => rmSync(out, { force: true }));
    return out;
  })();
  return built;
}
