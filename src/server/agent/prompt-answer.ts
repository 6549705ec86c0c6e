/**
 * `fux answer`: the options of the prompt a blocked pane shows, and the keys that choose one. The
 * choice is checked against what is on screen now (zor reads it with the agent's rule set), so a
 * prompt that went away, or an option that is not offered, is refused instead of typed blind.
 */
import {
  answerKeys,
  describeOptions,
  parseChoice,
  pickOption,
  type PromptOption,
  type VisiblePrompt,
} from '../../zor';
import { FuxError } from '../errors';
import type { PaneEntry } from '../workspace';

/** The prompt on a pane, or a refusal that says why there is none and what to do. */
export function visiblePrompt(entry: PaneEntry, workspace: string): VisiblePrompt {
  const pane = `pane ${entry.id} in workspace ${workspace}`;
  const status = entry.agent.current;
  if (status.state !== 'blocked') {
    const what =
      status.agent === undefined ? 'runs no agent zor knows' : `is ${status.state} (${status.agent})`;
    throw new FuxError(
      'PRECONDITION_FAILED',
      `${pane} is not blocked on a prompt: it ${what}; \`fux wait ${entry.id} --state blocked\` waits for one`,
    );
  }
  const reading = entry.agent.readPrompt();
  if (reading === undefined) {
    throw new FuxError(
      'PRECONDITION_FAILED',
      `${pane} is blocked, but its agent ${status.agent ?? ''} has no rule set to read the prompt with; answer it with \`fux send-keys\``,
    );
  }
  if (reading.ok) return reading.prompt;
  switch (reading.reason) {
    case 'not-blocked':
      throw new FuxError(
        'PRECONDITION_FAILED',
        `${pane} shows no prompt now (its screen reads ${reading.state}); \`fux capture ${entry.id}\` shows it`,
      );
    case 'no-answers':
      throw new FuxError(
        'PRECONDITION_FAILED',
        `the ${status.agent ?? ''} rule set does not say how to answer its "${reading.rule}" prompt on ${pane}; answer it with \`fux send-keys\` (docs/rules.md, Answers, says how to declare it)`,
      );
    case 'no-options':
      throw new FuxError(
        'PRECONDITION_FAILED',
        `${pane} is blocked ("${reading.rule}"), but no option of its prompt is on screen; \`fux capture ${entry.id}\` shows it`,
      );
  }
}

export interface AnswerPlan {
  readonly option: PromptOption;
  /** Key names for the key encoder. */
  readonly keys: string[];
}

/** The option `choice` picks on the pane's visible prompt and the keys that choose it. */
export function planAnswer(entry: PaneEntry, workspace: string, choiceText: string): AnswerPlan {
  const choice = parseChoice(choiceText);
  if (choice === undefined) {
    throw new FuxError(
      'BAD_REQUEST',
      `unknown choice "${choiceText}": answer yes, no, always or an option number`,
    );
  }
  const prompt = visiblePrompt(entry, workspace);
  const picked = pickOption(prompt, choice);
  if ('problem' in picked) throw new FuxError('NOT_FOUND', `pane ${entry.id}: ${picked.problem}`);
  const keys = answerKeys(prompt, picked.option);
  if ('problem' in keys) {
    throw new FuxError(
      'PRECONDITION_FAILED',
      `pane ${entry.id}: ${keys.problem}; the options on screen: ${describeOptions(prompt.options)}`,
    );
  }
  return { option: picked.option, keys: keys.keys };
}
