/** A rule file that cannot be used, with every problem found in it; each line names the file. */
export class RuleFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(problems.map((problem) => `${file}: ${problem}`).join('\n'));
    this.name = 'RuleFileError';
  }
}
