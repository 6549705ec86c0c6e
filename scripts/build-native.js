#!/usr/bin/env node
// Compiles fux's two pieces of native code with the machine's C compiler: run by the build and by
// the package's postinstall. It never fails an install: a piece that cannot be built is left out,
// with a line saying so, and what uses it does without.
//
// - zor's native relay (native/zor-relay.c → native/build/zor-relay): without it zor relays
//   through node-pty, as it did before the relay existed (src/zor/wrapper/start-child.ts).
// - the allocator trim addon (native/malloc-trim.c → native/build/malloc-trim.node), built against
//   Node's own headers; glibc only. Without it the server still collects garbage when it goes
//   quiet but cannot hand freed pages back (src/server/memory/allocator.ts).
// - the peer-credentials addon (native/peer-cred.c → native/build/peer-cred.node): the uid at the
//   other end of the socket. Without it client and server still check the socket's directory and
//   the socket file's owner, but not the connected peer itself (src/peer-cred.ts).
// - the pane holder (native/pane-holder.c → native/build/pane-holder) and its addon (native/pane-fd.c
//   → native/build/pane-fd.node), which receives a holder's pty: with both, panes outlive the
//   server; without either, panes run on in-process ptys and a server's crash ends them
//   (src/server/holder/).
//
// `CC` picks the compiler; otherwise cc, gcc, then clang.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const build = path.join(root, 'native', 'build');

/** Node's C headers (node_api.h): beside the running node, as its installers put them. */
function nodeHeaders() {
  const dir = path.join(path.dirname(process.execPath), '..', 'include', 'node');
  return fs.existsSync(path.join(dir, 'node_api.h')) ? dir : undefined;
}

const TARGETS = [
  {
    source: 'zor-relay.c',
    output: 'zor-relay',
    consequence: 'zor relays output through node-pty',
    flags: () => ({ flags: ['-O2'] }),
  },
  {
    source: 'malloc-trim.c',
    output: 'malloc-trim.node',
    consequence: 'the server cannot hand freed memory back to the system',
    flags: () => {
      if (process.platform !== 'linux') return { problem: 'malloc_trim is glibc only' };
      const headers = nodeHeaders();
      if (headers === undefined)
        return { problem: "Node's headers (include/node/node_api.h) are not installed" };
      // N-API symbols resolve against the running node when the addon loads.
      return { flags: ['-O2', '-shared', '-fPIC', '-I', headers] };
    },
  },
  {
    source: 'peer-cred.c',
    output: 'peer-cred.node',
    consequence: "fux checks the socket file's owner but cannot ask who is connected",
    flags: () => {
      const headers = nodeHeaders();
      if (headers === undefined)
        return { problem: "Node's headers (include/node/node_api.h) are not installed" };
      // N-API symbols resolve against the running node when the addon loads (macOS says so).
      const link = process.platform === 'darwin' ? ['-bundle', '-undefined', 'dynamic_lookup'] : ['-shared'];
      return { flags: ['-O2', ...link, '-fPIC', '-I', headers] };
    },
  },
  {
    source: 'pane-holder.c',
    output: 'pane-holder',
    consequence: 'panes run in the server and end with it (a crash restarts them from the journal)',
    flags: () => ({ flags: ['-O2'] }),
  },
  {
    source: 'pane-fd.c',
    output: 'pane-fd.node',
    consequence: 'panes run in the server and end with it (a crash restarts them from the journal)',
    flags: () => {
      const headers = nodeHeaders();
      if (headers === undefined)
        return { problem: "Node's headers (include/node/node_api.h) are not installed" };
      const link = process.platform === 'darwin' ? ['-bundle', '-undefined', 'dynamic_lookup'] : ['-shared'];
      return { flags: ['-O2', ...link, '-fPIC', '-I', headers] };
    },
  },
];

/** Compile one target; returns what went wrong, or undefined once it is built. */
function compile(target) {
  const source = path.join(root, 'native', target.source);
  const output = path.join(build, target.output);
  if (!fs.existsSync(source)) return `${path.relative(root, source)} is missing`;
  const { flags, problem } = target.flags();
  if (problem !== undefined) return problem;
  fs.mkdirSync(build, { recursive: true });
  const compilers = process.env.CC ? [process.env.CC] : ['cc', 'gcc', 'clang'];
  // Written beside the target and renamed, so a process running meanwhile never sees half a binary.
  const partial = `${output}.${process.pid}`;
  let failure = 'no C compiler (cc, gcc or clang) found';
  for (const compiler of compilers) {
    const built = spawnSync(compiler, [...flags, '-o', partial, source], { encoding: 'utf8' });
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

for (const target of TARGETS) {
  if (process.platform === 'win32') break;
  let problem;
  try {
    problem = compile(target);
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  if (problem !== undefined) {
    fs.rmSync(path.join(build, target.output), { force: true });
    process.stderr.write(`fux: native/${target.source} was not built (${problem}); ${target.consequence}.\n`);
  }
}
