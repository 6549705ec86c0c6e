/**
 * `fux answer ID CHOICE`: what a choice means (`yes`, `no`, `always` or an option's number), which
 * option of a visible prompt it picks, and the keys that pick it. Pure; the keys are names the
 * one key encoder (src/protocol/keys.ts) turns into bytes.
 */
import type { PromptOption, VisiblePrompt } from './visible-prompt';

export const CHOICE_WORDS = ['yes', 'no', 'always'] as const;
export type ChoiceWord = (typeof CHOICE_WORDS)[number];
export type Choice = ChoiceWord | number;

/** A choice as written: one of the words, or an option number from 1 to 99. */
export const CHOICE_PATTERN = /^(?:yes|no|always|[1-9][0-9]?)$/;

export function parseChoice(text: string): Choice | undefined {
  if (!CHOICE_PATTERN.test(text)) return undefined;
  return /^\d/.test(text) ? Number(text) : (text as ChoiceWord);
}

/** "1. Yes · 2. No": the options as a person reads them, for refusals and pickers. */
export function describeOptions(options: readonly PromptOption[]): string {
  return options.map((option) => `${option.number}. ${option.label}`).join(' · ');
}

/**
 * The option a choice picks, or why none does. `yes` is the plain accept: the first option whose
 * label is a yes and not an always (so "Yes, and don't ask again" is not taken for it).
 */
export function pickOption(
  prompt: VisiblePrompt,
  choice: Choice,
): { readonly option: PromptOption } | { readonly problem: string } {
  const { options, answers } = prompt;
  let option: PromptOption | undefined;
  if (typeof choice === 'number') {
    option = options.find((o) => o.number === choice);
  } else {
    const wanted = answers[choice];
    const always = answers.always;
    option = options.find(
      (o) =>
        wanted?.test(o.label) === true && (choice !== 'yes' || always === undefined || !always.test(o.label)),
    );
  }
  if (option !== undefined) return { option };
  const name = typeof choice === 'number' ? `option ${choice}` : `"${choice}" option`;
  return { problem: `the prompt has no ${name}; the options on screen: ${describeOptions(options)}` };
}

/**
 * The key names that choose `option`: its number typed, or the cursor moved to it (Up/Down in a
 * list, Left/Right in a row) and Enter; then the keys of any confirm step its label needs. A row
 * is walked straight from the selected label, never around its ends, so it does not matter
 * whether the agent's row wraps.
 */
export function answerKeys(
  prompt: VisiblePrompt,
  option: PromptOption,
): { readonly keys: string[] } | { readonly problem: string } {
  const { answers } = prompt;
  const confirm = answers.confirm.find((step) => step.label.test(option.label))?.keys ?? [];
  if (answers.select === 'digit') {
    // A prompt takes a digit as the choice at once: "1" of "12" would already choose option 1.
    if (option.number > 9) return { problem: `option ${option.number} has no single digit to type` };
    return { keys: [String(option.number), ...confirm] };
  }
  const at = prompt.options.find((o) => o.cursor);
  if (at === undefined) {
    const where =
      answers.layout === 'row'
        ? 'no option is drawn selected (or more than one is)'
        : 'the cursor is on none of the options';
    return { problem: `${where}, so arrows cannot reach one` };
  }
  const steps = option.number - at.number;
  const [forward, back] = answers.layout === 'row' ? ['Right', 'Left'] : ['Down', 'Up'];
  return {
    keys: [...Array<string>(Math.abs(steps)).fill(steps > 0 ? forward : back), 'Enter', ...confirm],
  };
}
