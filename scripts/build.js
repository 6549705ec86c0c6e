#!/usr/bin/env node
// Build: compile src/ to dist/, regenerate oclif.manifest.json so command lookup needs no directory
// scan, bundle @oclif/core into one file with V8's code cache, and bundle the CLI's fast path for
// hot verbs, for a fast CLI start (src/client/startup.ts says why).
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const fs = require('node:fs');

const root = path.resolve(__dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const stampFile = path.join(root, 'dist', '.build-stamp');

// What the build is made from: every source file's path, size and mtime, and the build's own
// inputs. `npx fux` in a fresh clone links the project and runs its `prepare` again right after
// `npm install` built it; with nothing changed that run is skipped, so the first `npx fux` starts at
// once and cannot leave dist/ half rebuilt if it is interrupted. --force builds regardless.
function inputsStamp() {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(path.join(root, 'src'));
  for (const f of [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'scripts/build.js',
    'scripts/build-native.js',
    'native/zor-relay.c',
    'native/malloc-trim.c',
    'native/peer-cred.c',
    'native/pane-holder.c',
    'native/pane-fd.c',
  ])
    files.push(path.join(root, f));
  return files
    .sort()
    .map((f) => {
      const st = fs.statSync(f);
      return `${path.relative(root, f)} ${st.size} ${st.mtimeMs}`;
    })
    .join('\n');
}

const stamp = inputsStamp();
if (
  !process.argv.includes('--force') &&
  fs.existsSync(stampFile) &&
  fs.readFileSync(stampFile, 'utf8') === stamp
) {
  process.stdout.write('dist/ is up to date (node scripts/build.js --force rebuilds it)\n');
  process.exit(0);
}
const run = (cmd, args, quiet = false) =>
  execFileSync(cmd, args, { cwd: root, stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit' });

fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
run(bin('tsc'), ['-p', 'tsconfig.build.json']);
run(bin('oclif'), ['manifest'], true);
/** One CommonJS file for Node 20 in dist/vendor/ with `entry` and all it imports but `options`' externals. */
const bundle = (entry, outfile, options = []) =>
  run(bin('esbuild'), [
    entry,
    '--bundle',
    '--platform=node',
    '--format=cjs',
    '--target=node20',
    '--log-level=warning',
    ...options,
    `--outfile=${path.join(root, 'dist', 'vendor', outfile)}`,
  ]);
// Loaded only for TypeScript sources in development, never by the built CLI.
bundle(require.resolve('@oclif/core'), 'oclif-core.js', [
  '--external:typescript',
  '--external:ts-node',
  '--external:tsx',
]);
run(process.execPath, ['-e', "require('./dist/client/startup').preloadOclif(true)"]);
// The fast paths (src/client/startup.ts): for hot verbs, with the client, the rpc layer and tRPC;
// for bin/zor, with the wrapper alone (node-pty is native). No oclif in either. tRPC's ES modules
// let esbuild leave out what the client does not use. Their code caches are written by their first
// runs, so that they also hold the functions compiled while running.
bundle(path.join(root, 'src', 'client', 'cli', 'fast-path.ts'), 'fux-fast.js', ['--main-fields=module,main']);
bundle(path.join(root, 'src', 'client', 'cli', 'zor-fast-path.ts'), 'zor-fast.js', [
  '--main-fields=module,main',
  '--external:node-pty',
]);
// bin/zor's detection (xterm, the rules, the detector), loaded once the child runs: zor starts the
// child after reading the small bundle above only.
bundle(path.join(root, 'src', 'zor', 'wrapper', 'detection.ts'), 'zor-detection.js', [
  '--main-fields=module,main',
]);
// zor's native relay and the server's allocator trim (scripts/build-native.js; each optional).
run(process.execPath, [path.join(root, 'scripts', 'build-native.js')]);
fs.writeFileSync(stampFile, stamp);
