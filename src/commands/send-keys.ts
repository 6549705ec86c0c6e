import { Args, Flags } from '@oclif/core';
import { FuxCommand } from '../client/command';
import { sendKeys } from '../client/cli/verbs';

export default class SendKeys extends FuxCommand<typeof SendKeys> {
  static override summary = "Write keys to a pane's pty: text, \\x1b-style escapes, and key names";
  static override description =
    'Each argument that is exactly a key name is sent as that key: Enter, Tab, BTab, Escape, Space, BSpace, ' +
    'Delete, Insert, Up, Down, Left, Right, Home, End, PageUp, PageDown, F1-F12, C-x (Ctrl), M-x (Alt). ' +
    'Other arguments are text, with \\xHH, \\uHHHH, \\e, \\n, \\r, \\t expanded. --literal sends everything as typed.';
  static override usage = 'send-keys <ID> <KEYS...>';
  static override examples = [
    "<%= config.bin %> send-keys 2 'echo hi' Enter",
    '<%= config.bin %> send-keys 2 C-c',
    "<%= config.bin %> send-keys 2 '\\x1b[A'",
  ];
  static override strict = false;
  static override args = { id: Args.string({ required: true, description: 'pane id' }) };
  static override flags = { literal: Flags.boolean({ char: 'l', description: 'no key names, no escapes' }) };

  async run(): Promise<void> {
    const { argv } = await this.parse(SendKeys);
    this.print(
      await sendKeys(await this.fux(), {
        workspace: this.workspace,
        id: this.args.id,
        keys: (argv as string[]).slice(1),
        literal: this.flags.literal,
      }),
    );
  }
}
