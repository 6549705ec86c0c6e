#!/usr/bin/env node
// Build: compile src/ to dist/, regenerate oclif.manifest.json so command lookup needs no directory
// scan, and bundle @oclif/core into one file with V8's code cache for a fast CLI start
// (src/client/startup.ts says why).
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const fs = require('node:fs');

const root = path.resolve(__dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
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
