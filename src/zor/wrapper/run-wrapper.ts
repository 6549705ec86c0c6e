/**
 * The wrapper: `zor [opts] [--] cmd…` runs cmd in a pty, passes its bytes through untouched, keeps
 * an @xterm/headless screen of what it draws, and announces the agent's state. zor is not a
 * terminal: it sets no TERM, answers no query and tracks no keyboard protocol; the real terminal
 * does all of that, and the child's queries and their answers pass through both ways.
 */
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { Terminal } from '@xterm/headless';
import * as pty from 'node-pty';
import { constants } from 'node:os';
import { performance } from 'node:perf_hooks';
import { basename } from 'node:path';
import { Detector } from '../detector';
import { openEventSink, type EventSink } from '../emit/event-sink';
import { TitleRewriter, type TitleMode } from '../emit/title-rewriter';
import { AgentProbe } from '../ident/agent-probe';
import { platformProcessTable } from '../ident/platform-process-table';
import { findSet, type RuleSet } from '../rules/rule-set';
import { loadRules } from '../rules/sources';
import { XtermScreenView } from '../screen/xterm-screen-view';
import { Announcer } from './announcer';
import { resolveCommand } from './command-path';
import { dumpFixture } from './fixture-dump';
import { OrderedOutput } from './ordered-output';
import { copyWindowSize, DEFAULT_WINDOW_SIZE, type WindowSize } from './window-size';

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

/** Signals zor passes on to the child rather than dying of them (the pty shields the child from them). */
const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT'];

/** Above this much unparsed output the child is paused; xterm discards beyond 50 MB pending. */
const PARSE_HIGH_WATER = 4 * 1024 * 1024;
const PARSE_LOW_WATER = 1024 * 1024;

function signalName(signal: number | undefined): NodeJS.Signals | undefined {
  if (signal === undefined || signal === 0) return undefined;
  const names = Object.entries(constants.signals) as [NodeJS.Signals, number][];
  return names.find(([, number]) => number === signal)?.[0];
}

/** `$SHELL -l`, or `/bin/sh -l` without a SHELL. */
export function defaultCommand(env: NodeJS.ProcessEnv): string[] {
  return [env.SHELL !== undefined && env.SHELL !== '' ? env.SHELL : '/bin/sh', '-l'];
}

/** The terminal zor's own size comes from: stdin when it is one, else stdout. */
function terminalFd(): 0 | 1 | undefined {
  if (process.stdin.isTTY) return 0;
  if (process.stdout.isTTY) return 1;
  return undefined;
}

function outerSize(fd: 0 | 1 | undefined): WindowSize {
  if (fd === undefined) return DEFAULT_WINDOW_SIZE;
  const [cols, rows] = process.stdout.isTTY ? process.stdout.getWindowSize() : [0, 0];
  return cols > 0 && rows > 0 ? { rows, cols, xpixel: 0, ypixel: 0 } : DEFAULT_WINDOW_SIZE;
}

function createTerminal(size: WindowSize): Terminal {
  const terminal = new Terminal({
    cols: size.cols,
    rows: size.rows,
    // The detection window reaches into scrollback by up to a screenful.
    scrollback: Math.max(size.rows * 2, 100),
    allowProposedApi: true,
  });
  terminal.loadAddon(new Unicode11Addon());
  terminal.unicode.activeVersion = '11';
  return terminal;
}

function loadSets(ruleDirs: readonly string[], debug: (line: string) => void): RuleSet[] {
  const loaded = loadRules(ruleDirs);
  // A broken rule file must not stop the user's shell from starting.
  for (const error of loaded.errors) process.stderr.write(`zor: ${error.message}\n`);
  for (const entry of loaded.sets)
    debug(`rules ${entry.set.id} ${entry.set.version} from ${entry.set.source}`);
  return loaded.sets.map((entry) => entry.set);
}

export async function runWrapper(options: WrapperOptions): Promise<ChildExit> {
  const debug = options.debug ? (line: string) => process.stderr.write(`zor: ${line}\n`) : undefined;
  const sets = loadSets(options.ruleDirs, debug ?? (() => undefined));
  const forcedSet = options.agent === undefined ? undefined : findSet(sets, options.agent);
  if (options.agent !== undefined && forcedSet === undefined) {
    throw new WrapperError(`no rule set "${options.agent}"; \`zor agents\` lists the loaded ones`, 2);
  }
  const [file, ...args] = options.command.length > 0 ? options.command : defaultCommand(process.env);
  if (resolveCommand(file!, process.env.PATH) === undefined)
    throw new WrapperError(`${file}: command not found`, 127);
  const sink: EventSink | undefined =
    options.events === undefined ? undefined : openEventSink(options.events);

  const fd = terminalFd();
  const initialSize = outerSize(fd);
  const env: NodeJS.ProcessEnv = { ...process.env, ZOR_PID: String(process.pid) };
  if (forcedSet !== undefined) env.ZOR_AGENT = forcedSet.id;
  // The command goes to exec as given, so the child sees the argv[0] the user typed.
  const child = pty.spawn(file!, args, {
    cols: initialSize.cols,
    rows: initialSize.rows,
    cwd: process.cwd(),
    env,
    encoding: null,
  });
  // node-pty's UnixTerminal has a `ptsName` getter its typings leave out.
  const ptsName = (child as unknown as { ptsName?: unknown }).ptsName;
  const ptyPath = typeof ptsName === 'string' ? ptsName : undefined;
  const terminal = createTerminal(initialSize);
  const applySize = (): void => {
    const size =
      (fd !== undefined && ptyPath !== undefined ? copyWindowSize(fd, ptyPath) : undefined) ?? outerSize(fd);
    if (size.xpixel === 0 && size.ypixel === 0) child.resize(size.cols, size.rows);
    terminal.resize(size.cols, size.rows);
    terminal.options.scrollback = Math.max(size.rows * 2, terminal.options.scrollback ?? 0);
  };
  applySize();

  const screen = new XtermScreenView(terminal);
  const table = forcedSet === undefined ? platformProcessTable() : undefined;
  const commandSet = findSet(sets, basename(file!));
  const now = () => performance.now();
  const detector = new Detector({
    screen,
    sets,
    now: now(),
    probe:
      table === undefined
        ? undefined
        : new AgentProbe({ table, sets, child: child.pid, now: now(), fallbackAgent: commandSet?.id }),
    // Without a process table, the command zor was given is the only identification there is.
    forcedAgent:
      forcedSet !== undefined
        ? { agent: forcedSet.id, pid: child.pid }
        : table === undefined && commandSet !== undefined
          ? { agent: commandSet.id, pid: child.pid }
          : undefined,
  });

  const pauses = new Set<'stdout' | 'parser'>();
  const setPaused = (reason: 'stdout' | 'parser', paused: boolean): void => {
    const before = pauses.size > 0;
    if (paused) pauses.add(reason);
    else pauses.delete(reason);
    if (pauses.size > 0 && !before) child.pause();
    if (pauses.size === 0 && before) child.resume();
  };
  const output = new OrderedOutput(process.stdout, (full) => setPaused('stdout', full));
  const announcer = new Announcer({
    inject: (text) => output.inject(text),
    title: new TitleRewriter(options.title),
    osc: options.osc,
    sink,
    debug,
    childTitle: () => screen.title(),
    wallClock: Date.now,
  });

  let timer: NodeJS.Timeout | undefined;
  let stepQueued = false;
  let finished = false;
  const step = (): void => {
    stepQueued = false;
    if (finished) return;
    announcer.handle(detector.step(now()));
    clearTimeout(timer);
    timer = setTimeout(step, Math.max(0, detector.nextDeadline() - now()));
  };
  const queueStep = (): void => {
    if (stepQueued) return;
    stepQueued = true;
    setImmediate(step);
  };

  terminal.onTitleChange(() => announcer.childSetTitle(screen.title()));
  if (debug !== undefined) {
    // zor 0.1 passes a child's own state reports through and only logs them (seed 001).
    for (const number of [7877, 21337]) {
      terminal.parser.registerOscHandler(number, (data) => {
        debug(`child sent OSC ${number};${data}`);
        return true;
      });
    }
  }

  let unparsed = 0;
  child.onData((data: string | Buffer) => {
    const chunk = typeof data === 'string' ? Buffer.from(data) : data;
    output.childOutput(chunk);
    unparsed += chunk.length;
    if (unparsed > PARSE_HIGH_WATER) setPaused('parser', true);
    terminal.write(chunk, () => {
      unparsed -= chunk.length;
      if (unparsed < PARSE_LOW_WATER) setPaused('parser', false);
      queueStep();
    });
  });

  const stdin = process.stdin;
  const raw = stdin.isTTY === true;
  const restoreTerminal = (): void => {
    if (raw && stdin.isRaw) stdin.setRawMode(false);
  };
  const enterRaw = (): void => {
    if (raw) stdin.setRawMode(true);
  };
  enterRaw();
  // Covers process.exit and an uncaught exception: the user's terminal is never left raw.
  process.on('exit', restoreTerminal);
  const forwardInput = (data: Buffer): void => child.write(data);
  const endOfInput = (): void => {
    // A piped stdin that ends is an end of file for the child, as typed at a terminal.
    if (!raw) child.write('\x04');
  };
  stdin.on('data', forwardInput);
  stdin.on('end', endOfInput);

  let dumps = 0;
  const onUsr1 = (): void => {
    const path = dumpFixture(
      {
        screen,
        agent: detector.published.agent,
        agentVersion: detector.ruleSet?.agentVersion,
        verdict: detector.verdictNow(),
      },
      ++dumps,
    );
    debug?.(`fixture written to ${path}`);
  };
  const forwarders = FORWARDED_SIGNALS.map((signal) => {
    const forward = (): void => child.kill(signal);
    process.on(signal, forward);
    return [signal, forward] as const;
  });
  process.on('SIGWINCH', applySize);
  // After a stop (`kill -STOP`, then `fg`) the shell may have reset the terminal's modes.
  process.on('SIGCONT', enterRaw);
  process.on('SIGUSR1', onUsr1);
  step();

  const exit = await new Promise<{ exitCode: number; signal?: number }>((resolve) => child.onExit(resolve));
  finished = true;
  clearTimeout(timer);
  const signal = signalName(exit.signal);
  announcer.childExited({ code: signal === undefined ? exit.exitCode : null, signal });
  await output.flush();
  for (const [name, forward] of forwarders) process.off(name, forward);
  process.off('SIGWINCH', applySize);
  process.off('SIGCONT', enterRaw);
  process.off('SIGUSR1', onUsr1);
  stdin.off('data', forwardInput);
  stdin.off('end', endOfInput);
  restoreTerminal();
  process.off('exit', restoreTerminal);
  stdin.pause();
  if (sink !== undefined) {
    await sink.close();
    if (sink.dropped > 0) debug?.(`${sink.dropped} event lines dropped (the reader was behind)`);
  }
  screen.dispose();
  terminal.dispose();
  return { code: exit.exitCode, signal };
}
