/** What a verb answers: the value `--json` prints, and the text printed without it. */
export interface VerbResult {
  value: unknown;
  human(): string;
}

/** Print a verb's answer: one line of JSON with --json, else its text (nothing when empty). */
export function printResult(json: boolean, result: VerbResult): void {
  if (json) process.stdout.write(`${JSON.stringify(result.value)}\n`);
  else {
    const text = result.human();
    if (text) process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }
}
