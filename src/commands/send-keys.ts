import { Args, Flags } from '@oclif/core';
import { FuxCommand } from '../client/command';
import { sendKeys } from '../client/cli/verbs';

export default class SendKeys extends FuxCommand<typeof SendKeys> {
  static override summary = "Write keys to a pane's pty: text, \\x1b-style escapes, and key names";
  static override description =
    'An argument that is a key name, spelled as listed, is sent as that key, with the bytes an xterm sends ' +
    '(the attach client uses the same encoder): Enter, Tab, BTab, Escape, Space, BSpace, Up, Down, Left, Right, ' +
    'Home, End, PageUp/PgUp, PageDown/PgDn, Insert, Delete, Begin, F1-F12, or one character, after any of the ' +
    'modifiers C- (Ctrl), M- (Alt), S- (Shift): C-c, M-x, C-Up, S-F1, C-M-Left. ' +
    'An argument shaped like a key name (a modifier prefix on a word without spaces, or F and a number) that ' +
    'names no key, such as C-Upp or F13, is an error, not text. Every other argument is text (a lower-case ' +
    'word such as `end` too), with \\xHH, \\uHHHH, \\e, \\n, \\r, \\t expanded. --literal sends everything as typed.';
  static override usage = 'send-keys <ID> <KEYS...>';
  static override examples = [
    "<%= config.bin %> send-keys 2 'echo hi' Enter",
    '<%= config.bin %> send-keys 2 C-c',
    '<%= config.bin %> send-keys 2 C-Up PgUp',
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
