/** What a zor command prints and how it exits; the oclif commands only write these out. */
export interface CommandOutput {
  readonly stdout: readonly string[];
  readonly stderr: readonly string[];
  readonly exitCode: number;
}

/** Exit code for a mismatch (`zor check`): the fixture and the rules disagree. */
export const EXIT_MISMATCH = 1;
/** Exit code for a problem that stopped the command: a bad file, an unknown agent. */
export const EXIT_ERROR = 2;
