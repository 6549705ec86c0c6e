import { Args, Command, Flags } from '@oclif/core';
import { EXIT_ERROR } from '../../zor/cli/command-output';
import { runExplain } from '../../zor/cli/explain';
import { PaneDumpError, requestPaneDump } from '../../zor/cli/pane-dump';
import { printOutput } from '../../zor/cli/print-output';

export default class ZorExplain extends Command {
  static override summary = 'Show every rule with the text its region read and which gates matched';
  static override examples = [
    '<%= config.bin %> zor explain fixtures/claude/idle-fresh.txt',
    '<%= config.bin %> zor explain --pane 48211',
  ];
  static override args = { fixture: Args.string({ description: 'fixture file (or use --pane)' }) };
  static override flags = {
    pane: Flags.integer({
      description: 'explain the live screen of the zor wrapper with this pid (default: $ZOR_PID)',
      min: 1,
    }),
    agent: Flags.string({ description: 'rule set to use instead of the fixture\'s "agent" header' }),
    rules: Flags.string({
      description: 'extra rule directory (repeatable); later sets replace earlier',
      multiple: true,
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ZorExplain);
    let fixture = args.fixture;
    if (fixture === undefined) {
      const pid = flags.pane ?? Number(process.env.ZOR_PID);
      if (!Number.isInteger(pid) || pid <= 0) {
        this.error('give a fixture file, or --pane PID for a running `zor` wrapper', { exit: EXIT_ERROR });
      }
      try {
        fixture = await requestPaneDump(pid);
      } catch (error) {
        if (error instanceof PaneDumpError) this.error(error.message, { exit: EXIT_ERROR });
        throw error;
      }
    }
    printOutput(runExplain({ fixture, agent: flags.agent, ruleDirs: flags.rules ?? [] }));
  }
}
