import { Command, Flags } from '@oclif/core';
import { TITLE_MODES } from '../../zor/emit/title-rewriter';
import { runZor } from '../../zor/cli/run-zor';
import { splitWrapperArgv } from '../../zor/cli/split-argv';

export default class Zor extends Command {
  static override summary =
    'Run a command in a pty and announce its agent state (title glyph, OSC 7877, event lines)';
  static override description =
    "Everything after zor's own options (or after --) is the command, default $SHELL -l. Output and input pass " +
    'through untouched; zor adds only its OSC 7877 and title sequences between escape sequences. Exits as the command did.';
  static override usage = ['zor [OPTIONS] [--] COMMAND [ARGS…]'];
  static override examples = [
    'zor -- claude',
    'zor --events /tmp/zor.sock --title replace -- codex',
    'zor --events - -- claude 3>events.jsonl',
    'kill -USR1 $ZOR_PID   # write a fixture of what the rules see to $TMPDIR',
  ];
  static override strict = false;
  static override flags = {
    events: Flags.string({
      description: 'also write JSON event lines to this unix socket or fifo, or - for fd 3',
    }),
    title: Flags.option({
      description: 'title glyph mode',
      options: TITLE_MODES,
      default: 'prefix' as const,
    })(),
    osc: Flags.boolean({
      description: 'write OSC 7877 state reports (--no-osc to stop)',
      default: true,
      allowNo: true,
    }),
    rules: Flags.string({
      description: 'extra rule directory (repeatable); later sets replace earlier',
      multiple: true,
    }),
    agent: Flags.string({ description: 'skip identification and use this rule set' }),
    debug: Flags.boolean({
      description: 'print verdicts and state changes to stderr (redirect it: 2>zor.log)',
    }),
  };

  async run(): Promise<void> {
    const flagDefinitions: Record<string, { type: string; char?: string }> = Zor.flags;
    const takesValue = (name: string) =>
      Object.entries(flagDefinitions).some(
        ([flag, definition]) => definition.type === 'option' && (flag === name || definition.char === name),
      );
    const { options, command } = splitWrapperArgv(this.argv, takesValue);
    const { flags } = await this.parse({ flags: Zor.flags, strict: true }, [...options]);
    const failure = await runZor(
      {
        command,
        events: flags.events,
        title: flags.title,
        osc: flags.osc,
        ruleDirs: flags.rules ?? [],
        agent: flags.agent,
        debug: flags.debug,
      },
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded once needed (run-wrapper.ts)
      () => require('../../zor/wrapper/detection') as typeof import('../../zor/wrapper/detection'),
    );
    this.error(failure.message, { exit: failure.exit });
  }
}
