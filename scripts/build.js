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
run(bin('esbuild'), [
  require.resolve('@oclif/core'),
  '--bundle',
  '--platform=node',
  '--format=cjs',
  '--target=node20',
  '--log-level=warning',
  // Loaded only for TypeScript sources in development, never by the built CLI.
  '--external:typescript',
  '--external:ts-node',
  '--external:tsx',
  `--outfile=${path.join(root, 'dist', 'vendor', 'oclif-core.js')}`,
]);
run(process.execPath, ['-e', "require('./dist/client/startup').preloadOclif(true)"]);
// The fast path for hot verbs (src/client/cli/fast-path.ts) with the client, the rpc layer and tRPC:
// one file, no oclif. Its code cache is written by its first run, so that it also holds the
// functions a verb compiles while it runs, not only the top level.
run(bin('esbuild'), [
  path.join(root, 'src', 'client', 'cli', 'fast-path.ts'),
  '--bundle',
  '--platform=node',
  '--format=cjs',
  '--target=node20',
  '--log-level=warning',
  // tRPC's ES modules let esbuild leave out what the client does not use.
  '--main-fields=module,main',
  `--outfile=${path.join(root, 'dist', 'vendor', 'fux-fast.js')}`,
]);
// bin/zor's fast path with the wrapper, the detector and @xterm/headless; node-pty is native.
run(bin('esbuild'), [
  path.join(root, 'src', 'client', 'cli', 'zor-fast-path.ts'),
  '--bundle',
  '--platform=node',
  '--format=cjs',
  '--target=node20',
  '--log-level=warning',
  '--main-fields=module,main',
  '--external:node-pty',
  `--outfile=${path.join(root, 'dist', 'vendor', 'zor-fast.js')}`,
]);
fs.writeFileSync(stampFile, stamp);
