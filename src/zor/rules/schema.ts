/**
 * The rule file format: one TOML file per agent, validated with these zod schemas. Unknown keys are
 * rejected at every level so a misspelt key fails loudly instead of silently matching nothing.
 * docs/rules.md is the prose version of this file; src/zor/rules/compile.ts adds the checks zod
 * cannot express (regexes compile, limits, flags on the right states).
 */
import { z } from 'zod';
import { VERDICT_STATES } from '../agent-state';
import { STYLE_FLAGS } from '../screen/screen-view';

/** Rule set ids and rule ids: short, lowercase-friendly, usable in a file name and a fixture header. */
const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

const identifier = (what: string) =>
  z
    .string()
    .regex(
      IDENTIFIER,
      `${what} must start with a letter or digit and use only letters, digits, "_", "." and "-"`,
    );

const matcherList = z.array(z.string());

/**
 * A gate: every part that is present must hold (conjunction).
 * - `contains`: every needle is a substring of the region, case-insensitively.
 * - `regex`: every pattern matches the region text (lines joined and ended with `\n`).
 * - `line_regex`: every pattern matches at least one line of the region.
 * - `all`: every sub-gate matches. `any`: at least one sub-gate matches. `not`: no sub-gate matches.
 */
export interface GateInput {
  readonly contains?: readonly string[];
  readonly regex?: readonly string[];
  readonly line_regex?: readonly string[];
  readonly all?: readonly GateInput[];
  readonly any?: readonly GateInput[];
  readonly not?: readonly GateInput[];
}

const gateFields = {
  contains: matcherList.optional(),
  regex: matcherList.optional(),
  line_regex: matcherList.optional(),
  get all() {
    return z.array(gateSchema).optional();
  },
  get any() {
    return z.array(gateSchema).optional();
  },
  get not() {
    return z.array(gateSchema).optional();
  },
};

export const gateSchema: z.ZodType<GateInput> = z.strictObject(gateFields);

/** A rule: a gate plus what it concludes. */
export interface RuleInput extends GateInput {
  /** Unique within the set; fixtures name it in `matched`. */
  readonly id: string;
  /** The verdict when the gate matches; `skip` vetoes any update. */
  readonly state: 'working' | 'blocked' | 'idle' | 'skip';
  /** Higher wins; on a tie the rule earlier in the file wins. Default 0. */
  readonly priority: number;
  /** The region the gate reads, e.g. `whole`, `bottom_non_empty(12)`. Default `whole`. */
  readonly region: string;
  /** Only on idle rules: an unmistakable prompt; publishes without the working → idle hold. */
  readonly visible_idle: boolean;
  /** Only on blocked rules: a question the user must answer is on screen; re-announced every 800 ms. */
  readonly visible_blocker: boolean;
  /** Only on working rules: a spinner or progress line is on screen, not working inferred. */
  readonly visible_working: boolean;
}

export const ruleSchema = z.strictObject({
  ...gateFields,
  id: identifier('a rule id').refine((id) => id !== 'none', {
    message: '"none" is reserved for the idle fallback in fixtures',
  }),
  state: z.enum(VERDICT_STATES),
  priority: z.number().int().min(-1_000_000).max(1_000_000).default(0),
  region: z.string().default('whole'),
  visible_idle: z.boolean().default(false),
  visible_blocker: z.boolean().default(false),
  visible_working: z.boolean().default(false),
});

/** A step some options need after they are chosen, such as confirming an "always allow". */
export interface ConfirmInput {
  /** The labels of the options that need it. */
  readonly label: string;
  /** Key names pressed after the choice's own keys, e.g. `["Enter"]`. */
  readonly keys: readonly string[];
}

/**
 * How the prompts of some blocked rules are answered (`fux answer`): which lines on screen are the
 * options, which of them mean yes, always and no, and which keys choose one.
 */
export interface AnswersInput {
  /** The blocked rules this reads: when one of them wins, its prompt is answered this way. */
  readonly rules: readonly string[];
  /** Where the options are drawn, e.g. `whole`, `after_last_rule`. Default `whole`. */
  readonly region: string;
  /**
   * `list`: one option per line, numbered. `row`: the options side by side on one line, split by
   * runs of two or more spaces, the selected one told by how it is drawn. Default `list`.
   */
  readonly layout: 'list' | 'row';
  /**
   * `list`: a line that is an option, with named groups `number` (its digits) and `label` (its
   * text). `row`: the line of options, with a named group `row` around the labels.
   */
  readonly option: string;
  /** The option line under the cursor (`list` only); needed by `select = "arrows"`. */
  readonly cursor?: string;
  /**
   * `digit` types the option's number; `arrows` moves the cursor to it (Up/Down in a list,
   * Left/Right in a row), then Enter.
   */
  readonly select: 'digit' | 'arrows';
  /** `row` only: the styles that mark the selected label. Default inverse and background. */
  readonly selected?: readonly ('bold' | 'inverse' | 'background')[];
  /** A label that accepts (`fux answer ID yes`: the first such option that is not an `always` one). */
  readonly yes?: string;
  /** A label that accepts and stops asking ("don't ask again", "always allow"). */
  readonly always?: string;
  /** A label that declines. */
  readonly no?: string;
  /** Second steps: options whose label matches one are followed by its keys. */
  readonly confirm: readonly ConfirmInput[];
}

export const ANSWER_SELECT = ['digit', 'arrows'] as const;
export const ANSWER_LAYOUTS = ['list', 'row'] as const;

/** A key name as `fux send-keys` takes it (`Enter`, `Right`, `y`); the server's encoder checks it. */
const keyName = z.string().regex(/^[A-Za-z0-9-]{1,16}$/, 'a key name such as Enter or Right');

export const confirmSchema = z.strictObject({
  label: z.string(),
  keys: z.array(keyName).min(1).max(8),
});

export const answersSchema = z.strictObject({
  rules: z.array(identifier('a rule id')).min(1),
  region: z.string().default('whole'),
  layout: z.enum(ANSWER_LAYOUTS).default('list'),
  option: z.string(),
  cursor: z.string().optional(),
  select: z.enum(ANSWER_SELECT),
  selected: z.array(z.enum(STYLE_FLAGS)).min(1).optional(),
  yes: z.string().optional(),
  always: z.string().optional(),
  no: z.string().optional(),
  confirm: z.array(confirmSchema).max(8).default([]),
});

/** One agent's rule file. */
export interface RuleSetInput {
  /** The agent id published in OSC 7877 and event lines, e.g. `claude`. */
  readonly id: string;
  /** The rule set's own version, shown by `zor agents`. */
  readonly version: string;
  /** The agent release the rules were captured from, e.g. `2.1.197`. */
  readonly agent_version?: string;
  /** Other names for the agent; `--agent` and `ZOR_AGENT` accept them. */
  readonly aliases: readonly string[];
  /** Normalised process names that identify the agent; defaults to the id and the aliases. */
  readonly process_names?: readonly string[];
  /** The prompt glyph, e.g. `❯`; needed by `after_last_prompt_marker` and `whole_unless_at_prompt`. */
  readonly prompt_marker?: string;
  /** Line prefixes meaning the agent has answered since the last prompt line (`whole_unless_at_prompt`). */
  readonly block_markers: readonly string[];
  readonly rules: readonly RuleInput[];
  /** How the blocked rules' prompts are answered; a blocked rule without an entry cannot be answered. */
  readonly answers: readonly AnswersInput[];
}

export const ruleSetSchema = z.strictObject({
  id: identifier('a rule set id'),
  version: z.string().min(1),
  agent_version: z.string().min(1).optional(),
  aliases: z.array(identifier('an alias')).default([]),
  process_names: z.array(z.string().min(1)).min(1).optional(),
  prompt_marker: z.string().min(1).optional(),
  block_markers: z.array(z.string().min(1)).default([]),
  rules: z.array(ruleSchema).default([]),
  answers: z.array(answersSchema).default([]),
});

// The hand-written interfaces above carry the doc comments; these assertions keep them in step with
// the schemas so the two cannot drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
const ruleSetInSync: Same<DeepReadonly<z.output<typeof ruleSetSchema>>, DeepReadonly<RuleSetInput>> = true;
void ruleSetInSync;
