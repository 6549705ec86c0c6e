/** A rule set after validation and compilation: what evaluation, identification and the CLI use. */
import type { VerdictState, VisibleFlags } from '../agent-state';
import type { StyleFlag } from '../screen/screen-view';
import type { Region } from './region';

/** A gate with needles lowercased and patterns compiled once, at load. */
export interface CompiledGate {
  readonly contains: readonly string[];
  readonly regex: readonly RegExp[];
  readonly lineRegex: readonly RegExp[];
  readonly all: readonly CompiledGate[];
  readonly any: readonly CompiledGate[];
  readonly not: readonly CompiledGate[];
}

export interface CompiledRule {
  readonly id: string;
  readonly state: VerdictState;
  readonly priority: number;
  readonly region: Region;
  readonly visible: VisibleFlags;
  readonly gate: CompiledGate;
}

/** A second step: options whose label matches `label` are followed by `keys`. */
export interface CompiledConfirm {
  readonly label: RegExp;
  readonly keys: readonly string[];
}

/** How the prompts of some blocked rules are answered (the schema's `answers`, compiled). */
export interface CompiledAnswers {
  /** The blocked rules whose prompts these are. */
  readonly rules: readonly string[];
  readonly region: Region;
  readonly layout: 'list' | 'row';
  /**
   * `list`: an option line, with the named groups `number` and `label`. `row`: the line of
   * options, with the named group `row`, compiled with indices (`d`) so the labels' columns are known.
   */
  readonly option: RegExp;
  /** The option line under the cursor (`list`). */
  readonly cursor: RegExp | undefined;
  readonly select: 'digit' | 'arrows';
  /** `row`: the styles that mark the selected label. */
  readonly selected: readonly StyleFlag[];
  readonly yes: RegExp | undefined;
  readonly always: RegExp | undefined;
  readonly no: RegExp | undefined;
  readonly confirm: readonly CompiledConfirm[];
}

export interface RuleSet {
  readonly id: string;
  readonly version: string;
  readonly agentVersion: string | undefined;
  readonly aliases: readonly string[];
  readonly processNames: readonly string[];
  readonly promptMarker: string | undefined;
  readonly blockMarkers: readonly string[];
  /** In file order. */
  readonly rules: readonly CompiledRule[];
  /** Highest priority first, file order within a priority: the first match here is the verdict. */
  readonly rulesByPriority: readonly CompiledRule[];
  /** How its blocked prompts are answered; a blocked rule named by none cannot be answered. */
  readonly answers: readonly CompiledAnswers[];
  /** The file the set was loaded from. */
  readonly source: string;
}

/** Whether `name` is the set's id or one of its aliases (how `--agent` and `ZOR_AGENT` name a set). */
export function setAnswersTo(set: RuleSet, name: string): boolean {
  return set.id === name || set.aliases.includes(name);
}

export function findSet(sets: readonly RuleSet[], name: string): RuleSet | undefined {
  return sets.find((set) => setAnswersTo(set, name));
}
