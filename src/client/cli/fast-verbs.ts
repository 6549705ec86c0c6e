/**
 * The verbs bin/fux runs without oclif (fast-path.ts), and zor's verbs, which bin/zor's fast path
 * (zor-fast-path.ts) leaves to oclif. Apart from the fast paths so the start-up code can tell,
 * before loading anything, whether a command line may take one.
 */
export const FAST_VERBS = ['list', 'capture', 'send-keys', 'new', 'split'] as const;
export type FastVerbName = (typeof FAST_VERBS)[number];

export function isFastVerb(word: string | undefined): word is FastVerbName {
  return (FAST_VERBS as readonly (string | undefined)[]).includes(word);
}

/** zor's verbs: `zor check F` runs the verb, any other word is a command for the wrapper to run. */
export const ZOR_VERBS = ['agents', 'check', 'explain'] as const;

export function isZorVerb(word: string | undefined): boolean {
  return (ZOR_VERBS as readonly (string | undefined)[]).includes(word);
}
