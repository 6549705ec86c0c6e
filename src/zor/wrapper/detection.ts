/**
 * Starting detection for a running child: the process probe, the terminal emulator and detector
 * (output-watcher.ts) and the announcer, and the rule loader. This module and what it imports
 * (xterm, the rule schemas, the detector, the process table) are most of what zor loads, so
 * run-wrapper.ts loads it only once the child is running (or before, for rule files of the user's
 * own); bin/zor loads it from a bundle of its own (src/client/startup.ts).
 */
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { EventSink } from '../emit/event-sink';
import { TitleRewriter, type TitleMode } from '../emit/title-rewriter';
import { AgentProbe } from '../ident/agent-probe';
import { platformProcessTable } from '../ident/platform-process-table';
import { findSet, type RuleSet } from '../rules/rule-set';
import { Announcer } from './announcer';
import type { PauseReason } from './output-relay';
import { OutputWatcher } from './output-watcher';
import type { WindowSize } from './window-size';

// The wrapper loads the rules only with this module, where the schemas and the parser are.
export { loadRules } from '../rules/sources';

export interface DetectionStart {
  readonly sets: readonly RuleSet[];
  /** `--agent`: skip identification and use this set. */
  readonly forcedSet: RuleSet | undefined;
  /** The command as given (its name is the fallback identification). */
  readonly file: string;
  readonly childPid: number;
  readonly size: WindowSize;
  readonly inject: (text: string) => void;
  readonly pause: (reason: PauseReason, paused: boolean) => void;
  readonly title: TitleMode;
  readonly osc: boolean;
  readonly sink: EventSink | undefined;
  readonly debug: ((line: string) => void) | undefined;
}

export function startDetection(start: DetectionStart): OutputWatcher {
  const { sets, forcedSet, childPid } = start;
  const table = forcedSet === undefined ? platformProcessTable() : undefined;
  const commandSet = findSet(sets, basename(start.file));
  // Without a process table, the command zor was given is the only identification there is.
  const forced = forcedSet ?? (table === undefined ? commandSet : undefined);
  const watcher = new OutputWatcher({
    cols: start.size.cols,
    rows: start.size.rows,
    detector: {
      sets,
      probe:
        table === undefined
          ? undefined
          : new AgentProbe({
              table,
              sets,
              child: childPid,
              now: performance.now(),
              fallbackAgent: commandSet?.id,
            }),
      forcedAgent: forced === undefined ? undefined : { agent: forced.id, pid: childPid },
    },
    inject: start.inject,
    announcer: (inject, childTitle) =>
      new Announcer({
        inject,
        title: new TitleRewriter(start.title),
        osc: start.osc,
        sink: start.sink,
        debug: start.debug,
        childTitle,
        wallClock: Date.now,
      }),
    pause: start.pause,
    debug: start.debug,
  });
  watcher.start();
  return watcher;
}
