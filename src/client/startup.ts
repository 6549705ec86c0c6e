import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';
import type * as Oclif from '@oclif/core';
import { meantVerb, splitGlobalFlags, verbFirst } from './cli/command-line';
import { isFastVerb, isZorVerb } from './cli/fast-verbs';

/**
 * How bin/fux and bin/zor start. Measured here, a verb spent more time loading code than doing its
 * work: @oclif/core is about 170 module files, fux's client and tRPC about 60 more, each resolved
 * and compiled on every run, and oclif then reads its configuration before a command runs.
 *
 * - The verbs scripts call most (cli/fast-verbs.ts) take a fast path without oclif: the build
 *   bundles it with the client and tRPC into dist/vendor/fux-fast.js, loaded with V8's code cache.
 * - bin/zor's wrapper form takes a fast path of its own (dist/vendor/zor-fast.js), which loads
 *   detection from a second bundle (dist/vendor/zor-detection.js) only once the child runs.
 * - Everything else (help, the other verbs, anything the fast path does not parse) runs oclif,
 *   itself bundled into dist/vendor/oclif-core.js with a code cache and registered as
 *   `@oclif/core`, so every `require('@oclif/core')` (from the commands too) gets the bundle.
 *
 * Without the bundles (a tree built by tsc alone) the same code runs from its own files.
 */

const root = path.join(__dirname, '..', '..');
const vendor = path.join(root, 'dist', 'vendor');
const oclifBundle = path.join(vendor, 'oclif-core.js');
const fastBundle = path.join(vendor, 'fux-fast.js');
const zorBundle = path.join(vendor, 'zor-fast.js');
const zorDetectionBundle = path.join(vendor, 'zor-detection.js');

interface Loaded {
  module: Module;
  /** Store V8's compiled code for the next run, if the cache was missing or stale (or `force`). */
  saveCache(force?: boolean): void;
}

function readCache(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Evaluate `file` as the CommonJS module `as` (its require and __dirname resolve from there). */
function loadCached(file: string, as: string): Loaded {
  const cacheFile = `${file}.v8cache`;
  const cachedData = readCache(cacheFile);
  const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const mod = new Module(as, module);
  mod.filename = as;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(
    path.dirname(as),
  );
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  const req = (id: string): unknown => mod.require(id);
  wrapper.call(
    mod.exports,
    mod.exports,
    Object.assign(req, { resolve: require.resolve }),
    mod,
    as,
    path.dirname(as),
  );
  mod.loaded = true;
  const stale = cachedData === undefined || script.cachedDataRejected === true;
  return {
    module: mod,
    saveCache(force = false) {
      if (!force && !stale) return;
      // Written after the run, the cache also holds the functions the run compiled. A rename keeps
      // two processes that save at once from leaving half a file; a read-only install runs without.
      const partial = `${cacheFile}.${process.pid}`;
      try {
        fs.writeFileSync(partial, script.createCachedData());
        fs.renameSync(partial, cacheFile);
      } catch {
        fs.rmSync(partial, { force: true });
      }
    },
  };
}

/** Make `require('@oclif/core')` return the bundle. `writeCache` is for the build. */
export function preloadOclif(writeCache = false): void {
  if (!fs.existsSync(oclifBundle)) return;
  const target = require.resolve('@oclif/core');
  if (require.cache[target]) return;
  // oclif finds its own package.json from __dirname: give it the directory it was bundled from.
  const loaded = loadCached(oclifBundle, target);
  require.cache[target] = loaded.module;
  if (writeCache) loaded.saveCache(true);
}

/** Code from its bundle with the code cache, else (a tree built by tsc alone) from its own module. */
interface Bundled<T> {
  /** Loads it the first time, then returns the same exports. */
  load(): T;
  /** Stores the code cache of a bundle loaded and stale (nothing otherwise). */
  saveCache(): void;
}

function bundled<T>(bundle: string, module: string): Bundled<T> {
  let exports: T | undefined;
  let loaded: Loaded | undefined;
  return {
    load() {
      if (exports !== undefined) return exports;
      if (fs.existsSync(bundle)) {
        loaded = loadCached(bundle, bundle);
        exports = loaded.module.exports as T;
      } else {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        exports = require(module) as T;
      }
      return exports;
    },
    saveCache: () => loaded?.saveCache(),
  };
}

/** A fast path, loaded now. */
function loadFastPath<T>(bundle: string, module: string): { fast: T; saveCache(): void } {
  const code = bundled<T>(bundle, module);
  return { fast: code.load(), saveCache: code.saveCache };
}

/** bin/fux. */
export function fux(given: string[]): void {
  // `fux -w agents new -- codex`: the verb first, its global flags after it.
  const argv = verbFirst(given, (word) => isFastVerb(word) || verbNames().has(word));
  // process.argv too: oclif reads it for the help it prints after a usage error.
  process.argv.splice(2, process.argv.length, ...argv);
  const verb = argv[0];
  if (isFastVerb(verb)) {
    const { fast, saveCache } = loadFastPath<typeof import('./cli/fast-path')>(fastBundle, './cli/fast-path');
    const call = fast.parseFast(verb, argv.slice(1));
    if (call) {
      void fast.runFast(call).then(saveCache);
      return;
    }
  }
  // `fux help [verb…]` is `fux [verb…] --help` (the app has no help plugin).
  if (verb === 'help') process.argv.splice(2, process.argv.length, ...argv.slice(1), '--help');
  // `fux` alone, or with a word that is no verb (`fux work`), attaches: it runs `fux attach …`.
  else if (attaches(argv)) {
    // A bare word one slip from a verb (`fux lsit`) is a typo, not a workspace to create.
    const [word] = splitGlobalFlags(argv).rest;
    const meant = word === undefined || word.startsWith('-') ? undefined : meantVerb(word, verbNames());
    if (meant !== undefined) {
      process.stderr.write(
        `fux: unknown command "${word}"; did you mean ${meant}? (\`fux attach ${word}\` attaches to a workspace of that name)\n`,
      );
      process.exitCode = 1;
      return;
    }
    process.argv.splice(2, 0, 'attach');
  }
  void runOclif('fux', process.argv.slice(2));
}

/** The first word of every command in oclif's manifest (`worktree list` gives `worktree`). */
function verbNames(): Set<string> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const manifest = require(path.join(root, 'oclif.manifest.json')) as { commands: Record<string, unknown> };
  return new Set(Object.keys(manifest.commands).map((id) => id.split(/[: ]/)[0]!));
}

function attaches(args: string[]): boolean {
  const first = args[0];
  if (first === undefined) return true;
  if (['--help', '-h', '--version', '-v', 'version'].includes(first)) return false;
  if (first.startsWith('-')) return true; // `fux -w work`, `fux --socket S`
  return !verbNames().has(first);
}

/**
 * bin/zor: the `zor` topic of the same CLI (`zor check F` is `fux zor check F`, `zor -- cmd` is
 * `fux zor -- cmd`), under its own name: its version, help and errors say `zor`.
 */
export function zor(argv: string[]): void {
  if (argv[0] === '--version') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { version } = require(path.join(root, 'package.json')) as { version: string };
    process.stdout.write(`zor/${version} ${process.platform}-${process.arch} node-${process.version}\n`);
    return;
  }
  // The wrapper form (`zor [options] [--] command…`, not a zor verb nor help) may take the fast path.
  if (!isZorVerb(argv[0])) {
    const { fast, saveCache } = loadFastPath<typeof import('./cli/zor-fast-path')>(
      zorBundle,
      './cli/zor-fast-path',
    );
    const run = fast.parseZor(argv);
    if (run) {
      // Detection (xterm, the rules: most of zor's code) has a bundle of its own, loaded only once
      // the child runs: a command that is quickly done, or a flood of plain text, never needs it.
      const detection = bundled<typeof import('../zor/wrapper/detection')>(
        zorDetectionBundle,
        '../zor/wrapper/detection',
      );
      // The wrapper exits as its command does: keep the code caches it compiled before that.
      process.once('exit', () => {
        saveCache();
        detection.saveCache();
      });
      void fast.runZorFast(run, detection.load);
      return;
    }
  }
  process.argv.splice(2, 0, 'zor');
  void runOclif('zor', process.argv.slice(2));
}

/** Run a command line through oclif, as `bin` (exported for tests that compare it with the fast path). */
export async function runOclif(bin: 'fux' | 'zor', args: string[]): Promise<void> {
  preloadOclif();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const oclif = require('@oclif/core') as typeof Oclif;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pjson = require(path.join(root, 'package.json')) as Oclif.Interfaces.PJSON;
  // oclif takes its bin (the name its help and errors use) from package.json.
  const options = { root, pjson: { ...pjson, oclif: { ...pjson.oclif, bin } } };
  try {
    await oclif.run(args, options);
    await oclif.flush();
  } catch (err) {
    await failed(oclif, err as UsageError, options, args);
  }
}

type UsageError = Parameters<typeof Oclif.handle>[0];

/**
 * oclif's error handler, except that the help it adds after a usage error is ours (help.ts: names
 * right, summaries present): it is rendered first and written once oclif has printed the error and
 * is exiting.
 */
async function failed(
  oclif: typeof Oclif,
  err: UsageError,
  options: Oclif.Interfaces.LoadOptions,
  args: string[],
): Promise<void> {
  if (err?.showHelp && err.parse?.input?.argv) {
    err.showHelp = false;
    const config = await oclif.Config.load(options);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { default: FuxHelp } = require('./help') as typeof import('./help');
    const text: string[] = [];
    class Captured extends FuxHelp {
      protected override emit(lines: string[]): void {
        text.push(...lines);
      }
    }
    await new Captured(config, { sections: ['flags', 'usage', 'arguments'], sendToStderr: true }).showHelp(
      args,
    );
    process.once('exit', () => fs.writeSync(2, `\n${text.join('\n')}\n`));
  }
  await oclif.handle(err);
}
