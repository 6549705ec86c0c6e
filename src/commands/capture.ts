import { Args, Flags } from '@oclif/core';
import { FuxCommand } from '../client/command';
import { capture } from '../client/cli/verbs';

export default class Capture extends FuxCommand<typeof Capture> {
  static override summary = 'Print the text of a pane, plain or with attributes, optionally with history';
  static override examples = [
    '<%= config.bin %> capture 3',
    '<%= config.bin %> capture 3 --scrollback 200',
    '<%= config.bin %> capture 3 --attrs',
  ];
  static override args = { id: Args.string({ required: true, description: 'pane id' }) };
  static override flags = {
    attrs: Flags.boolean({
      char: 'e',
      description: 'colours and attributes as escape sequences (like tmux -e)',
    }),
    scrollback: Flags.integer({ char: 'S', description: 'also this many lines of history', min: 0 }),
  };

  async run(): Promise<void> {
    this.print(
      await capture(await this.fux(), {
        workspace: this.workspace,
        id: this.args.id,
        attrs: this.flags.attrs,
        scrollback: this.flags.scrollback,
      }),
    );
  }
}
