/**
 * zor as a library: what the fux server runs on every pane, and what the wrapper is built from.
 *
 * A pane's detector, in the server:
 *
 *   const screen = new XtermScreenView(terminal);          // the pane's own @xterm/headless Terminal
 *   const sets = loadRules(config.ruleDirs).sets.map((entry) => entry.set);
 *   const table = platformProcessTable();                  // undefined off Linux and macOS
 *   const probe = table && new AgentProbe({ table, sets, child: pid, now: performance.now() });
 *   const detector = new Detector({ screen, sets, probe, now: performance.now() });
 *   // after each parsed write, and at detector.nextDeadline():
 *   for (const event of detector.step(performance.now())) …
 *
 * and a pane's own OSC 7877 reports: `terminal.parser.registerOscHandler(STATE_OSC_NUMBER, (data) =>
 * { const report = parseStateOsc(data); … })`.
 */

// Vocabulary.
export type { AgentState, VerdictState, VisibleFlags, VisibleFlagName } from './agent-state';
export { AGENT_STATES, VERDICT_STATES, NO_FLAGS, flagNames, sameFlags } from './agent-state';

// The screen.
export type { ScreenView, ScreenSize, Progress } from './screen/screen-view';
export { XtermScreenView } from './screen/xterm-screen-view';
export { StaticScreenView, type StaticScreen } from './screen/static-screen-view';
export { detectionWindow } from './screen/detection-window';
export { parseProgressOsc } from './screen/progress';

// Rules.
export type { RuleSet, CompiledRule, CompiledGate } from './rules/rule-set';
export { findSet, setAnswersTo } from './rules/rule-set';
export type { Region, RegionKind } from './rules/region';
export { parseRegion, formatRegion } from './rules/region';
export type { RuleSetInput, RuleInput, GateInput } from './rules/schema';
export { ruleSetSchema, ruleSchema, gateSchema } from './rules/schema';
export { RULE_SET_LIMITS } from './rules/compile';
export { parseRuleSet, loadRuleFile } from './rules/load';
export { RuleFileError } from './rules/rule-file-error';
export {
  loadRules,
  loadRuleDirectories,
  ruleDirectories,
  bundledRulesDir,
  userRulesDir,
  type LoadedRules,
  type LoadedRuleSet,
  type RuleDirectory,
  type RuleOrigin,
} from './rules/sources';
export { evaluate, IDLE_FALLBACK, type Verdict } from './rules/evaluate';
export { explain, type Explanation, type RuleExplanation, type GateTrace } from './rules/explain';
export { isHorizontalRule } from './rules/horizontal-rule';

// Answering a blocked prompt.
export type { CompiledAnswers } from './rules/rule-set';
export type { AnswersInput } from './rules/schema';
export {
  readPrompt,
  parseOptions,
  type PromptOption,
  type VisiblePrompt,
  type PromptReading,
} from './answer/visible-prompt';
export {
  parseChoice,
  pickOption,
  answerKeys,
  describeOptions,
  CHOICE_WORDS,
  CHOICE_PATTERN,
  type Choice,
  type ChoiceWord,
} from './answer/choice';

// Fixtures.
export { parseFixture, formatFixture, FixtureError, NO_RULE_MATCHED, type Fixture } from './fixture/fixture';
export { judgeFixture, fixtureScreen, type FixtureJudgement } from './fixture/check-fixture';

// Identification.
export type { ProcessInfo, Job, ProcessTable } from './ident/process-table';
export { LinuxProcTable } from './ident/linux-proc-table';
export { MacPsTable } from './ident/macos-ps-table';
export { platformProcessTable } from './ident/platform-process-table';
export { identify, realPath, type Identification, type PathResolver } from './ident/identify';
export { normaliseProcessName, type NormalisedName } from './ident/normalise';
export {
  AgentProbe,
  DEFAULT_PROBE_CONFIG,
  type ProbeConfig,
  type ProbeEvent,
  type ProbeOptions,
} from './ident/agent-probe';

// Hysteresis.
export {
  StateMachine,
  DEFAULT_MACHINE_CONFIG,
  type MachineConfig,
  type MachineEvent,
  type StateChange,
  type Heartbeat,
  type AgentFound,
  type AgentLost,
} from './state/state-machine';

// The detector that ties them together.
export {
  Detector,
  type DetectorOptions,
  type DetectorScreen,
  type DetectorEvent,
  type VerdictEvent,
} from './detector';
export { timeoutFor } from './deadline';

// Emitters.
export {
  buildStateOsc,
  stateOscParams,
  parseStateOsc,
  STATE_OSC_NUMBER,
  type StateReport,
} from './emit/state-osc';
export { TitleRewriter, titleOsc, STATE_GLYPHS, TITLE_MODES, type TitleMode } from './emit/title-rewriter';
export { stateLine, agentLine, exitLine, type StateLineInput } from './emit/event-line';
export { openEventSink, EventSinkError, EVENTS_FD, type EventSink } from './emit/event-sink';
