import { Help } from '@oclif/core';

/**
 * fux's help (package.json `oclif.helpClass`), and zor's. Two changes to oclif's:
 *
 * - Command lists always carry each verb's summary. oclif drops them when only some sections are
 *   asked for, which is how it shows help after a usage error: a bare list of names.
 * - Run as `zor`, the CLI's bin is `zor` (startup.ts), so oclif would write `zor zor check`: the
 *   zor topic's own name follows the bin. zor is a tool of its own, its help reads `zor check`.
 */
export default class FuxHelp extends Help {
  protected override summary(c: Parameters<Help['summary']>[0]): string | undefined {
    const summary = c.summary ?? c.description;
    return summary === undefined ? undefined : this.render(summary.split('\n')[0]!);
  }

  protected override log(...args: string[]): void {
    // Help written for `fux zor …` is read as `zor …`.
    this.emit(this.config.bin === 'zor' ? args.map((text) => text.replace(/\bzor zor\b/g, 'zor')) : args);
  }

  /** Where the help text goes: oclif's stdout or stderr. */
  protected emit(lines: string[]): void {
    super.log(...lines);
  }
}
