/**
 * The verbs bin/fux runs without oclif (fast-path.ts). Apart from the fast path itself so the
 * start-up code can tell, before loading anything, whether a command line may take it.
 */
export const FAST_VERBS = ['list', 'capture', 'send-keys', 'new', 'split'] as const;
export type FastVerbName = (typeof FAST_VERBS)[number];

export function isFastVerb(word: string | undefined): word is FastVerbName {
  return (FAST_VERBS as readonly (string | undefined)[]).includes(word);
}
