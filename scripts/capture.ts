/**
 * Regenerates fixtures/<agent>/*.txt from the live agents (Claude Code and Codex, as installed in
 * node_modules) running offline against the fake model server, at every capture size.
 *
 *   node -r ./scripts/capture-register.js scripts/capture.ts [--agent claude|codex]... [--out DIR] [--verbose]
 *
 * Each fixture's header pins the agent version read from the installed package.
 */
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FakeModelServer } from '../test/fake-model/server';
import { findInstalledAgent, REPO_ROOT, type AgentName } from '../test/agents/installed';
import { captureClaude, type AgentCaptureContext } from './capture-claude';
import { captureCodex } from './capture-codex';
import { CAPTURE_SIZES, FixtureWriter, sizeLabel } from './capture-fixture';

const SCENARIOS: Record<AgentName, (context: AgentCaptureContext) => Promise<void>> = {
  claude: captureClaude,
  codex: captureCodex,
};

function isAgentName(name: string): name is AgentName {
  return name in SCENARIOS;
}

async function captureAgent(agent: AgentName, outRoot: string, verbose: boolean): Promise<number> {
  const installed = findInstalledAgent(agent);
  if ('missing' in installed) throw new Error(`cannot capture ${agent}: ${installed.missing}`);
  const directory = join(outRoot, agent);
  // Stale fixtures from a scenario that no longer exists would otherwise linger and still pass.
  rmSync(directory, { recursive: true, force: true });
  let count = 0;
  for (const size of CAPTURE_SIZES) {
    const server = await FakeModelServer.start(
      verbose ? { log: (line) => console.log(`  [model] ${line}`) } : {},
    );
    const writer = new FixtureWriter(directory, agent, installed.version, size);
    // A fixed scratch path keeps paths drawn on screen the same from one capture run to the next.
    const scratch = join(tmpdir(), `fux-capture-${agent}-${sizeLabel(size)}`);
    try {
      console.log(`${agent} ${installed.version} at ${sizeLabel(size)}`);
      await SCENARIOS[agent]({ bin: installed.bin, server, size, scratch, writer });
    } finally {
      await server.close();
      rmSync(scratch, { recursive: true, force: true });
    }
    for (const file of writer.written) console.log(`  wrote ${file}`);
    if (server.unknownPaths.length > 0)
      console.log(`  unknown paths the agent called: ${server.unknownPaths.join(', ')}`);
    count += writer.written.length;
  }
  return count;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      agent: { type: 'string', multiple: true },
      out: { type: 'string', default: join(REPO_ROOT, 'fixtures') },
      // Prints every request the fake server answers: the first thing to read when a new agent
      // release calls something the server does not know.
      verbose: { type: 'boolean', default: false },
    },
  });
  const agents = values.agent ?? Object.keys(SCENARIOS);
  for (const agent of agents) {
    if (!isAgentName(agent))
      throw new Error(`unknown agent "${agent}"; known: ${Object.keys(SCENARIOS).join(', ')}`);
  }
  let total = 0;
  for (const agent of agents.filter(isAgentName))
    total += await captureAgent(agent, values.out, values.verbose);
  const onDisk = agents.filter(isAgentName).map((agent) => readdirSync(join(values.out, agent)).length);
  console.log(`captured ${total} fixtures (${onDisk.join(' + ')} on disk)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
