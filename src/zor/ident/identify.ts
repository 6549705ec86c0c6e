/**
 * Which agent, if any, is the foreground job: a pure function of the job listing and the loaded
 * rule sets (plus a path resolver for the symlink fallback, injected so tests need no files).
 *
 * A `ZOR_AGENT=<id>` in a process's environment that names a loaded set wins outright (how a
 * launcher script or an unknown fork declares itself). Otherwise each process's normalised name is
 * matched against the sets' `process_names`; if it matches nothing, the script or binary path is
 * canonicalised and the target's basename tried. Among matches the group leader wins; otherwise the
 * highest score (3: the name differs from `comm`, i.e. a wrapped script or a changed process title;
 * 2: a direct binary; 1: a bare runtime), the earliest process on ties.
 */
import { realpathSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { findSet, type RuleSet } from '../rules/rule-set';
import { normaliseProcessName, stripScriptSuffix } from './normalise';
import type { Job, ProcessInfo } from './process-table';

export interface Identification {
  /** The rule set's id. */
  readonly agent: string;
  readonly pid: number;
}

/** Resolves a path to its canonical target, or `undefined` when it cannot be resolved. */
export type PathResolver = (path: string) => string | undefined;

export const realPath: PathResolver = (path) => {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
};

function setForName(sets: readonly RuleSet[], name: string): RuleSet | undefined {
  return sets.find((set) => set.processNames.includes(name));
}

/** A bare command name (`cc`) was found through PATH; only a name with a slash is a path we can follow. */
function pathIfExplicit(path: string | undefined): string | undefined {
  return path !== undefined && path.includes('/') ? path : undefined;
}

interface Match {
  readonly set: RuleSet;
  readonly score: number;
}

function matchProcess(
  process: ProcessInfo,
  sets: readonly RuleSet[],
  resolvePath: PathResolver,
): Match | undefined {
  const normalised = normaliseProcessName(process);
  if (normalised === undefined) return undefined;
  const score = normalised.name !== process.comm ? 3 : normalised.kind === 'runtime' ? 1 : 2;
  const direct = setForName(sets, normalised.name);
  if (direct) return { set: direct, score };
  const path =
    normalised.kind === 'binary' ? (process.exe ?? pathIfExplicit(normalised.path)) : normalised.path;
  if (path === undefined) return undefined;
  const target = resolvePath(process.cwd === undefined ? path : resolve(process.cwd, path));
  if (target === undefined) return undefined;
  const viaLink = setForName(sets, stripScriptSuffix(basename(target)));
  return viaLink && { set: viaLink, score };
}

export function identify(
  job: Job,
  sets: readonly RuleSet[],
  resolvePath: PathResolver = realPath,
): Identification | undefined {
  const leaderFirst = [...job.processes].sort(
    (a, b) => Number(b.pid === job.leader) - Number(a.pid === job.leader),
  );
  for (const process of leaderFirst) {
    const declared = process.envAgent === undefined ? undefined : findSet(sets, process.envAgent);
    if (declared) return { agent: declared.id, pid: process.pid };
  }
  let best: { match: Match; process: ProcessInfo } | undefined;
  for (const process of job.processes) {
    const match = matchProcess(process, sets, resolvePath);
    if (match === undefined) continue;
    if (process.pid === job.leader) return { agent: match.set.id, pid: process.pid };
    if (best === undefined || match.score > best.match.score) best = { match, process };
  }
  return best && { agent: best.match.set.id, pid: best.process.pid };
}
