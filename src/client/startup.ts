import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';

/**
 * A fast start for the CLI. Measured here, a verb spent more time loading @oclif/core (about 170
 * module files, resolved and compiled one by one) than doing its work. The build bundles oclif
 * into one file (dist/vendor/oclif-core.js) and stores V8's compiled code beside it; this loads
 * that bundle with the cached code and registers it as `@oclif/core`, so every later
 * `require('@oclif/core')` — from bin/fux and from the commands — gets it without touching the
 * other files. Without the bundle (a tree built by tsc alone) nothing changes.
 */

const bundle = path.join(__dirname, '..', 'vendor', 'oclif-core.js');
const codeCache = `${bundle}.v8cache`;

function readCache(): Buffer | undefined {
  try {
    return fs.readFileSync(codeCache);
  } catch {
    return undefined;
  }
}

/** Evaluate `file` as a CommonJS module, using and (when `writeCache`) refreshing its code cache. */
function loadCached(file: string, as: string, writeCache: boolean): Module {
  const cachedData = readCache();
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
  // oclif finds its own package.json from __dirname: give it the directory it was bundled from.
  wrapper.call(
    mod.exports,
    mod.exports,
    Object.assign(req, { resolve: require.resolve }),
    mod,
    as,
    path.dirname(as),
  );
  mod.loaded = true;
  if (writeCache || (cachedData && script.cachedDataRejected)) {
    try {
      fs.writeFileSync(codeCache, script.createCachedData());
    } catch {
      // A read-only install just runs without the cache.
    }
  }
  return mod;
}

/** Make `require('@oclif/core')` return the bundle. `writeCache` is for the build. */
export function preloadOclif(writeCache = false): void {
  if (!fs.existsSync(bundle)) return;
  const target = require.resolve('@oclif/core');
  if (require.cache[target]) return;
  require.cache[target] = loadCached(bundle, target, writeCache);
}
