/**
 * Regenerates fixtures/<agent>/*.txt from the live agents (Claude Code, Codex, Gemini CLI and
 * OpenCode, as installed in node_modules) running offline against the fake model server, at every
 * capture size.
 *
 *   node -r ./scripts/capture-register.js scripts/capture.ts [--agent claude|codex|gemini|opencode]... [--out DIR] [--verbose]
 *
 * Each fixture's header pins the agent version read from the installed package.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FakeModelServer } from '../test/fake-model/server';
import { findInstalledAgent, REPO_ROOT, type AgentName } from '../test/agents/installed';
import { captureClaude, type AgentCaptureContext } from './capture-claude';
import { captureCodex } from './capture-codex';
import { captureGemini } from './capture-gemini';
import { captureOpenCode } from './capture-opencode';
import {
  ANY_SIZES,
  CAPTURE_SIZES,
  FixtureWriter,
  fixtureSize,
  isPrimarySize,
  RESIZED_PREFIX,
  sizeLabel,
  type Size,
} from './capture-fixture';

interface Scenario {
  readonly capture: (context: AgentCaptureContext) => Promise<void>;
  readonly sizes: readonly Size[];
}

const SCENARIOS: Record<AgentName, Scenario> = {
  claude: { capture: captureClaude, sizes: ANY_SIZES },
  codex: { capture: captureCodex, sizes: ANY_SIZES },
  gemini: { capture: captureGemini, sizes: CAPTURE_SIZES },
  opencode: { capture: captureOpenCode, sizes: CAPTURE_SIZES },
};

function isAgentName(name: string): name is AgentName {
  return name in SCENARIOS;
}

async function captureAgent(
  agent: AgentName,
  outRoot: string,
  sizes: readonly Size[],
  verbose: boolean,
): Promise<number> {
  const installed = findInstalledAgent(agent);
  if ('missing' in installed) throw new Error(`cannot capture ${agent}: ${installed.missing}`);
  const directory = join(outRoot, agent);
  // Stale fixtures from a scenario that no longer exists would otherwise linger and still pass.
  for (const size of sizes) removeFixturesOfSize(directory, size);
  let count = 0;
  for (const size of sizes) {
    const server = await FakeModelServer.start(
      verbose ? { log: (line) => console.log(`  [model] ${line}`) } : {},
    );
    const writer = new FixtureWriter(directory, agent, installed.version, size);
    // A fixed scratch path keeps paths drawn on screen the same from one capture run to the next.
    const scratch = join(tmpdir(), `fux-capture-${agent}-${sizeLabel(size)}`);
    try {
      console.log(`${agent} ${installed.version} at ${sizeLabel(size)}`);
      await SCENARIOS[agent].capture({ bin: installed.bin, server, size, scratch, writer });
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

/**
 * Removes the fixtures a capture at `size` writes (named by fixtureFileName), keeping other
 * sizes'. The reply-across-a-resize fixtures are written by the capture at the primary size.
 */
function removeFixturesOfSize(directory: string, size: Size): void {
  if (!existsSync(directory)) return;
  for (const file of readdirSync(directory)) {
    const resized = file.startsWith(RESIZED_PREFIX);
    if (resized ? isPrimarySize(size) : fixtureSize(file) === sizeLabel(size)) rmSync(join(directory, file));
  }
}

function parseSize(label: string): Size {
  const match = /^(\d+)x(\d+)$/.exec(label);
  if (!match) throw new Error(`--size takes COLSxROWS, such as 120x40; got "${label}"`);
  return { cols: Number(match[1]), rows: Number(match[2]) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      agent: { type: 'string', multiple: true },
      // Captures only these sizes (COLSxROWS), leaving the other sizes' fixtures in place.
      size: { type: 'string', multiple: true },
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
  const sizes = values.size?.map(parseSize);
  let total = 0;
  for (const agent of agents.filter(isAgentName))
    total += await captureAgent(agent, values.out, sizes ?? SCENARIOS[agent].sizes, values.verbose);
  const onDisk = agents.filter(isAgentName).map((agent) => readdirSync(join(values.out, agent)).length);
  console.log(`captured ${total} fixtures (${onDisk.join(' + ')} on disk)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
