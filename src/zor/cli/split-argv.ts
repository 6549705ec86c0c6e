/**
 * Splits `zor [opts] [--] cmd…` into zor's options and the command. zor's options end at `--` or at
 * the first word that is not one of them, so `zor claude --debug` passes `--debug` to claude.
 */
export interface SplitArgv {
  readonly options: readonly string[];
  readonly command: readonly string[];
}

/**
 * @param takesValue whether a long option name (without dashes) takes a value, as `--rules DIR`
 */
export function splitWrapperArgv(argv: readonly string[], takesValue: (name: string) => boolean): SplitArgv {
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--') return { options: argv.slice(0, index), command: argv.slice(index + 1) };
    if (!arg.startsWith('-') || arg === '-')
      return { options: argv.slice(0, index), command: argv.slice(index) };
    const name = arg.replace(/^--?/, '').split('=', 1)[0]!;
    if (!arg.includes('=') && takesValue(name)) index++;
  }
  return { options: argv, command: [] };
}
