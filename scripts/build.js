#!/usr/bin/env node
// Build: compile src/ to dist/ and regenerate oclif.manifest.json so command lookup needs no directory scan.
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const fs = require('node:fs');

const root = path.resolve(__dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
execFileSync(bin('tsc'), ['-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
execFileSync(bin('oclif'), ['manifest'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
