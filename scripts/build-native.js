#!/usr/bin/env node
// Compiles zor's native relay (native/zor-relay.c) to native/build/zor-relay with the machine's C
// compiler: run by the build and by the package's postinstall, so an installed zor relays output
// in native code. It never fails an install: without a compiler (or if compiling fails) it says so
// and zor relays through node-pty, as it did before the relay existed (src/zor/wrapper/start-child.ts).
// `CC` picks the compiler; otherwise cc, gcc, then clang.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const source = path.join(root, 'native', 'zor-relay.c');
const output = path.join(root, 'native', 'build', 'zor-relay');

function main() {
  if (process.platform === 'win32') return 'zor relays through node-pty on Windows';
  if (!fs.existsSync(source)) return `${path.relative(root, source)} is missing`;
  fs.mkdirSync(path.dirname(output), { recursive: true });
  const compilers = process.env.CC ? [process.env.CC] : ['cc', 'gcc', 'clang'];
  // Written beside the target and renamed, so a zor running meanwhile never sees half a binary.
  const partial = `${output}.${process.pid}`;
  let failure = 'no C compiler (cc, gcc or clang) found';
  for (const compiler of compilers) {
    const built = spawnSync(compiler, ['-O2', '-o', partial, source], { encoding: 'utf8' });
    if (built.error) continue;
    if (built.status === 0) {
      fs.renameSync(partial, output);
      return undefined;
    }
    failure = `${compiler} failed: ${(built.stderr || '').trim().split('\n').slice(0, 5).join(' / ')}`;
    break;
  }
  fs.rmSync(partial, { force: true });
  return failure;
}

let problem;
try {
  problem = main();
} catch (error) {
  problem = error instanceof Error ? error.message : String(error);
}
if (problem !== undefined) {
  fs.rmSync(output, { force: true });
  process.stderr.write(
    `fux: zor's native relay was not built (${problem}); zor relays output through node-pty.\n`,
  );
}
