import { Command, Flags } from '@oclif/core';
import { runAgents } from '../../zor/cli/agents';
import { printOutput } from '../../zor/cli/print-output';

export default class ZorAgents extends Command {
  static override summary = 'List the loaded rule sets: ids, versions, rule counts and where each came from';
  static override examples = [
    '<%= config.bin %> zor agents',
    '<%= config.bin %> zor agents --rules ./my-rules',
  ];
  static override flags = {
    rules: Flags.string({
      description: 'extra rule directory (repeatable); later sets replace earlier',
      multiple: true,
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ZorAgents);
    printOutput(runAgents({ ruleDirs: flags.rules ?? [] }));
  }
}
