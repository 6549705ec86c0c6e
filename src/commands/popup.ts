import { Flags } from '@oclif/core';
import { FuxCommand } from '../client/command';
import { launchInput } from '../client/launch';
import { launchFlags } from '../client/launch-flags';

export default class Popup extends FuxCommand<typeof Popup> {
  static override summary = 'Run a program in a centred overlay over the workspace until it exits';
  static override description =
    'Attached clients show it over the panes and send it the keys while it runs. The command exits with the program’s exit code.';
  static override usage = 'popup [--size WxH] [--cwd DIR] [-- COMMAND...]';
  static override examples = [
    '<%= config.bin %> popup -- htop',
    "<%= config.bin %> popup --size 60x20 -- sh -c 'fux list | fzf'",
  ];
  static override strict = false;
  static override flags = {
    ...launchFlags,
    size: Flags.string({ description: 'width x height in cells (default: 80 % of the workspace)' }),
  };

  async run(): Promise<void> {
    const { argv } = await this.parse(Popup);
    const size = parseSize(this.flags.size);
    const fux = await this.fux();
    const res = await fux.popup.mutate({
      workspace: this.workspace,
      ...size,
      ...launchInput(this.flags, argv as string[]),
    });
    this.out(res, () => '');
    const code = res.exit.code ?? 128 + (res.exit.signal ?? 0);
    if (code !== 0) this.exit(code);
  }
}

function parseSize(size: string | undefined): { cols?: number; rows?: number } {
  if (size === undefined) return {};
  const m = /^(\d{1,4})x(\d{1,4})$/.exec(size);
  if (!m) throw new Error(`--size ${size} is not WxH; write e.g. --size 80x20`);
  return { cols: Number(m[1]), rows: Number(m[2]) };
}
