import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './repo';

/** The parts of V8's `.cpuprofile` (what `node --cpu-prof` writes) that the breakdowns read. */
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export function readProfiles(dir: string): CpuProfile[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as CpuProfile);
}

function fileOf(url: string): string {
  return url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
}

/** Where a script comes from: an npm package, a part of fux (`dist/server`), or node itself. */
export function origin(url: string): string {
  if (url === '') return '(native)';
  // Resolving and reading modules outside any module's top level: requires made at run time.
  if (url.startsWith('node:internal/modules/')) return 'node module loader';
  if (url.startsWith('node:')) return 'node internals';
  const file = fileOf(url);
  const inPackage = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (inPackage) return inPackage[1]!;
  const own = path.relative(repoRoot, file);
  if (own.startsWith('..')) return file;
  const parts = own.split(path.sep);
  return parts.length > 2 ? parts.slice(0, 2).join('/') : own;
}

/**
 * The file whose top-level code `frame` runs, if it does. V8 reports a CommonJS module's top level
 * as an anonymous function at 0:0 of its file; an esbuild bundle (the CLI's dist/vendor) wraps
 * each bundled module in a function named after that module's path, `node_modules/semver/index.js`.
 */
function initializedModule(frame: CallFrame): string | undefined {
  if (frame.url !== '' && frame.functionName === '' && frame.lineNumber === 0 && frame.columnNumber === 0) {
    return fileOf(frame.url);
  }
  if (/^node_modules\/.+\.[cm]?js$/.test(frame.functionName)) return path.join(repoRoot, frame.functionName);
  return undefined;
}

const SPECIAL = new Set(['(idle)', '(garbage collector)', '(program)', '(root)']);
const MAIN_MODULE = 'node:internal/main/run_main_module';

/**
 * A span of time on the clock V8 stamps profiles with (CLOCK_MONOTONIC, µs): the same clock as
 * `process.hrtime`, so another process can say "only while I was measuring".
 */
export interface Window {
  fromUs: number;
  toUs: number;
}

/** Now, on the profiles' clock. */
export function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** Each sample's stack (root first) and how long it stood, in ms; only samples inside `window`. */
function* stacks(profile: CpuProfile, window?: Window): Generator<{ stack: CallFrame[]; ms: number }> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map<number, CallFrame[]>();
  const stackOf = (id: number): CallFrame[] => {
    let s = memo.get(id);
    if (!s) {
      const up = parent.get(id);
      s = [...(up === undefined ? [] : stackOf(up)), byId.get(id)!.callFrame];
      memo.set(id, s);
    }
    return s;
  };
  // A sample's interval is the time until the next one (the last sample runs to endTime).
  let t = profile.startTime;
  const times = profile.timeDeltas.map((d) => (t += d));
  for (let i = 0; i < profile.samples.length; i++) {
    const next = i + 1 < times.length ? times[i + 1]! : profile.endTime;
    if (window && (times[i]! < window.fromUs || times[i]! > window.toUs)) continue;
    yield { stack: stackOf(profile.samples[i]!), ms: Math.max(0, next - times[i]!) / 1000 };
  }
}

function add(into: Map<string, number>, key: string, ms: number): void {
  into.set(key, (into.get(key) ?? 0) + ms);
}

/** The nearest frame (from the leaf up) that has a script, for native leaves such as `writeSync`. */
function scriptedLeaf(stack: CallFrame[]): CallFrame {
  for (let i = stack.length - 1; i >= 0; i--) if (stack[i]!.url !== '') return stack[i]!;
  return stack[stack.length - 1]!;
}

/**
 * Where a short-lived process (a CLI verb) whose main script is `entryFile` spends its time,
 * averaged over `profiles`:
 * - `load X`: top-level code of modules of X running (require, compile, evaluate), where X is the
 *   package of the innermost module being initialised: each package's own load cost;
 * - `load via X`: the same time charged to the outermost module load other than the entry script,
 *   i.e. what requiring X costs including everything X requires;
 * - `run X`: everything else, by the package of the executing (scripted) frame;
 * - `(idle)`, `(garbage collector)`, `(program)`: V8's own.
 */
export function startupBreakdown(
  profiles: CpuProfile[],
  entryFile: string,
): {
  exclusive: Map<string, number>;
  inclusive: Map<string, number>;
  spanMs: number;
} {
  const exclusive = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let span = 0;
  for (const profile of profiles) {
    span += (profile.endTime - profile.startTime) / 1000;
    for (const { stack, ms } of stacks(profile)) {
      const leaf = stack[stack.length - 1]!;
      if (SPECIAL.has(leaf.functionName)) {
        add(exclusive, leaf.functionName, ms);
        add(inclusive, leaf.functionName, ms);
        continue;
      }
      // Module inits other than the entry script's (whose top level starts the whole CLI); a
      // sample taken after an await has no entry frame, only the modules being loaded since.
      const inits = stack
        .map(initializedModule)
        .filter((file): file is string => file !== undefined && file !== MAIN_MODULE && file !== entryFile);
      if (inits.length > 0) {
        add(exclusive, `load ${origin(inits[inits.length - 1]!)}`, ms);
        add(inclusive, `load via ${origin(inits[0]!)}`, ms);
      } else {
        const where = `run ${origin(scriptedLeaf(stack).url)}`;
        add(exclusive, where, ms);
        add(inclusive, where, ms);
      }
    }
  }
  const n = Math.max(1, profiles.length);
  const mean = (m: Map<string, number>): Map<string, number> => new Map([...m].map(([k, v]) => [k, v / n]));
  return { exclusive: mean(exclusive), inclusive: mean(inclusive), spanMs: span / n };
}

/** Self time within `window` (default: all of each profile), by package and by function. */
export function selfTime(
  profiles: CpuProfile[],
  window?: Window,
): { byOrigin: Map<string, number>; byFunction: Map<string, number> } {
  const byOrigin = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const profile of profiles) {
    for (const { stack, ms } of stacks(profile, window)) {
      const leaf = stack[stack.length - 1]!;
      if (SPECIAL.has(leaf.functionName)) {
        add(byOrigin, leaf.functionName, ms);
        continue;
      }
      const frame = scriptedLeaf(stack);
      const where = origin(frame.url);
      add(byOrigin, where, ms);
      const name = `${leaf.functionName || '(anonymous)'} (${where}${leaf === frame ? '' : ', native'})`;
      add(byFunction, name, ms);
    }
  }
  return { byOrigin, byFunction };
}

/** The largest entries, with the rest folded into one row. */
export function top(entries: Map<string, number>, count: number): [string, number][] {
  const sorted = [...entries].sort((a, b) => b[1] - a[1]);
  const head = sorted.slice(0, count);
  const rest = sorted.slice(count).reduce((sum, [, v]) => sum + v, 0);
  return rest > 0 ? [...head, [`(${sorted.length - count} more)`, rest]] : head;
}
