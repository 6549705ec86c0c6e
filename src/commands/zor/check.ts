import { Args, Command, Flags } from '@oclif/core';
import { runCheck } from '../../zor/cli/check';
import { printOutput } from '../../zor/cli/print-output';

export default class ZorCheck extends Command {
  static override summary = 'Evaluate one captured screen and print the state and the rule that decided it';
  static override description =
    'Exits 1 when the state differs from the fixture\'s "expect", or the rule from its "matched" when it has one.';
  static override examples = [
    '<%= config.bin %> zor check fixtures/claude/permission-bash.txt',
    '<%= config.bin %> zor check my-screen.txt --agent claude --rules ./my-rules',
  ];
  static override args = { fixture: Args.string({ required: true, description: 'fixture file' }) };
  static override flags = {
    agent: Flags.string({ description: 'rule set to use instead of the fixture\'s "agent" header' }),
    rules: Flags.string({
      description: 'extra rule directory (repeatable); later sets replace earlier',
      multiple: true,
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ZorCheck);
    printOutput(runCheck({ fixture: args.fixture, agent: flags.agent, ruleDirs: flags.rules ?? [] }));
  }
}
