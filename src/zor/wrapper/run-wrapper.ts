/**
 * The wrapper: `zor [opts] [--] cmd…` runs cmd in a pty, passes its bytes through untouched, keeps
 * an @xterm/headless screen of what it draws, and announces the agent's state. zor is not a
 * terminal: it sets no TERM, answers no query and tracks no keyboard protocol; the real terminal
 * does all of that, and the child's queries and their answers pass through both ways.
 */
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { openEventSink, type EventSink } from '../emit/event-sink';
import type { TitleMode } from '../emit/title-rewriter';
import { userRulesDir } from '../rules/rule-dirs';
import { findSet, type RuleSet } from '../rules/rule-set';
import { resolveCommand } from './command-path';
import type { PauseReason } from './output-relay';
import { scrollbackFor } from './parse-feed';
import { PlainFlood } from './plain-flood';
import { lineFeedsToKeep } from './plain-run';
import type { OutputWatcher } from './output-watcher';
import { startChild } from './start-child';
import { RawTerminalMode } from './terminal-mode';

export interface WrapperOptions {
  /** The command and its arguments; empty runs `$SHELL -l` (or `/bin/sh -l`). */
  readonly command: readonly string[];
  /** `--events`: a unix socket or fifo path, or `-` for fd 3. */
  readonly events: string | undefined;
  readonly title: TitleMode;
  /** Whether to write OSC 7877 (`--no-osc` clears it). */
  readonly osc: boolean;
  readonly ruleDirs: readonly string[];
  /** `--agent`: skip identification and use this rule set. */
  readonly agent: string | undefined;
  readonly debug: boolean;
}

export interface ChildExit {
  readonly code: number;
  /** The signal that killed the child, if one did. */
  readonly signal: NodeJS.Signals | undefined;
}

/** A problem found before the child starts; the message says what to do. */
export class WrapperError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'WrapperError';
  }
}

/** How long the child runs before detection is loaded, and how often a flood is looked at (see runWrapper). */
const DETECTION_DELAY_MS = 50;
/** Output kept for a parser not started, above which a flood no longer delays it (on node-pty all of it is). */
const FLOOD_KEPT_LIMIT = 1024 * 1024;

/** Signals zor passes on to the child rather than dying of them (the pty shields the child from them). */
const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT'];

function signalName(signal: number | null): NodeJS.Signals | undefined {
  if (signal === null || signal === 0) return undefined;
  const names = Object.entries(constants.signals) as [NodeJS.Signals, number][];
  return names.find(([, number]) => number === signal)?.[0];
}

/** `$SHELL -l`, or `/bin/sh -l` without a SHELL. */
export function defaultCommand(env: NodeJS.ProcessEnv): string[] {
  return [env.SHELL !== undefined && env.SHELL !== '' ? env.SHELL : '/bin/sh', '-l'];
}

/**
 * Loads detection.ts: the rule loader and what watches the output, most of zor's code. The caller
 * says how (bin/zor from a bundle of its own with a code cache, src/client/startup.ts), and it is
 * called only once rules or detection are needed (runWrapper).
 */
export type LoadDetection = () => typeof import('./detection');

function loadSets(
  { loadRules }: ReturnType<LoadDetection>,
  ruleDirs: readonly string[],
  debug: ((line: string) => void) | undefined,
): RuleSet[] {
  const loaded = loadRules(ruleDirs);
  // A broken rule file must not stop the user's shell from starting.
  for (const error of loaded.errors) process.stderr.write(`zor: ${error.message}\n`);
  for (const { set } of loaded.sets) debug?.(`rules ${set.id} ${set.version} from ${set.source}`);
  return loaded.sets.map((entry) => entry.set);
}

/** Subscribes process signal handlers and takes them all down again. */
class SignalHandlers {
  private readonly installed: [NodeJS.Signals, () => void][] = [];

  on(signal: NodeJS.Signals, handler: () => void): void {
    process.on(signal, handler);
    this.installed.push([signal, handler]);
  }

  removeAll(): void {
    for (const [signal, handler] of this.installed.splice(0)) process.off(signal, handler);
  }
}

export async function runWrapper(options: WrapperOptions, loadDetection: LoadDetection): Promise<ChildExit> {
  let loaded: ReturnType<LoadDetection> | undefined;
  const late = (): ReturnType<LoadDetection> => (loaded ??= loadDetection());
  const debug = options.debug ? (line: string) => void process.stderr.write(`zor: ${line}\n`) : undefined;
  // Rule files of the user's own load before the child starts, so a broken one is reported before
  // the child draws anything (and --agent names a set that exists). The bundled rules alone load
  // with detection.
  const ownRules = options.agent !== undefined || options.ruleDirs.length > 0 || existsSync(userRulesDir());
  let sets = ownRules ? loadSets(late(), options.ruleDirs, debug) : undefined;
  const forcedSet = options.agent === undefined ? undefined : findSet(sets ?? [], options.agent);
  if (options.agent !== undefined && forcedSet === undefined) {
    throw new WrapperError(`no rule set "${options.agent}"; \`zor agents\` lists the loaded ones`, 2);
  }
  const [file, ...args] = options.command.length > 0 ? options.command : defaultCommand(process.env);
  if (resolveCommand(file!, process.env.PATH) === undefined) {
    throw new WrapperError(`${file}: command not found`, 127);
  }
  const sink: EventSink | undefined =
    options.events === undefined ? undefined : openEventSink(options.events);

  const env: NodeJS.ProcessEnv = { ...process.env, ZOR_PID: String(process.pid) };
  if (forcedSet !== undefined) env.ZOR_AGENT = forcedSet.id;
  // Raw mode before the child starts: the native relay turns output processing off before it does.
  const terminalMode = new RawTerminalMode(process.stdin);
  terminalMode.enter();
  const pauses = new Set<PauseReason>();
  const setPaused = (reason: PauseReason, paused: boolean): void => {
    if (paused) pauses.add(reason);
    else pauses.delete(reason);
    if (pauses.size > 0) child.pause();
    else child.resume();
  };
  // The command goes to exec as given, so the child sees the argv[0] the user typed.
  const started = await startChild(file!, args, env, terminalMode, setPaused);
  debug?.(started.native ? `output relayed by ${started.native}` : 'output relayed through node-pty');
  const { child, relay } = started;
  let size = started.size;
  child.onOutput((chunk) => relay.childOutput(chunk));

  let detection: OutputWatcher | undefined;
  const startDetecting = (): OutputWatcher => {
    if (detection !== undefined) return detection;
    sets ??= loadSets(late(), options.ruleDirs, debug);
    detection = late().startDetection({
      sets,
      forcedSet,
      file: file!,
      childPid: child.pid,
      size,
      inject: (text) => relay.inject(text),
      pause: setPaused,
      title: options.title,
      osc: options.osc,
      sink,
      debug,
    });
    relay.attach(detection);
    return detection;
  };

  let sizing: Promise<void> = Promise.resolve();
  const applySize = (rawOutput: boolean): void => {
    // One after the other, so the last size read is the one applied.
    sizing = sizing.then(async () => {
      size = await started.copySize(rawOutput);
      detection?.resize(size.cols, size.rows);
    });
  };
  // The native relay copied the size as it started the child; on node-pty perl does it beside it.
  if (started.native === undefined) applySize(terminalMode.applies);
  const stdin = process.stdin;
  const forwardInput = (data: Buffer): void => child.write(data);
  const endOfInput = (): void => {
    // A piped stdin that ends is an end of file for the child, as typed at a terminal.
    if (!terminalMode.applies) child.write('\x04');
  };
  stdin.on('data', forwardInput);
  stdin.on('end', endOfInput);

  const signals = new SignalHandlers();
  for (const signal of FORWARDED_SIGNALS) signals.on(signal, () => child.kill(signal));
  signals.on('SIGWINCH', () => applySize(false));
  // After a stop (`kill -STOP`, then `fg`) the shell may have reset the terminal's modes.
  signals.on('SIGCONT', () => {
    terminalMode.enter();
    applySize(terminalMode.applies);
  });
  signals.on('SIGUSR1', () => {
    const path = startDetecting().dumpFixture();
    debug?.(`fixture written to ${path}`);
  });
  // Event lines and --debug report from the start. Otherwise detection waits a moment: a child
  // that is gone by then could not have been seen in any state (the detector needs several
  // looks 100 ms apart to change one), and one that runs on loses nothing, since the output it
  // wrote meanwhile is kept for the parser. It waits on while the child floods plain text
  // (plain-flood.ts) and no agent was named, as long as what is kept stays small.
  const flood = new PlainFlood(lineFeedsToKeep(size.rows, scrollbackFor(size.rows)));
  if (forcedSet === undefined) relay.watchFlood(flood);
  const startUnlessFlooding = (): void => {
    if (forcedSet === undefined && relay.kept < FLOOD_KEPT_LIMIT && flood.goingOn()) {
      detectionDelay = setTimeout(startUnlessFlooding, DETECTION_DELAY_MS);
    } else startDetecting();
  };
  let detectionDelay =
    sink !== undefined || debug !== undefined
      ? undefined
      : setTimeout(startUnlessFlooding, DETECTION_DELAY_MS);
  if (detectionDelay === undefined) startDetecting();

  const exit = await child.exited;
  clearTimeout(detectionDelay);
  if (started.native !== undefined) debug?.(`the relay left out ${started.leftOut()} output bytes`);
  // The terminal's mode is restored below: not before a size copy has finished changing it.
  await sizing;
  const signal = signalName(exit.signal);
  // A signal without a name here still ends zor the way a shell reports it: 128 + its number.
  const code = exit.code ?? 128 + (exit.signal ?? 0);
  detection?.finish({ code: signal === undefined ? code : null, signal });
  await relay.flush();
  await started.close();
  signals.removeAll();
  stdin.off('data', forwardInput);
  stdin.off('end', endOfInput);
  terminalMode.restore();
  stdin.pause();
  if (sink !== undefined) {
    await sink.close();
    if (sink.dropped > 0) debug?.(`${sink.dropped} event lines dropped (the reader was behind)`);
  }
  return { code, signal };
}
