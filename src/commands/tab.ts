import { Args } from '@oclif/core';
import { FuxCommand } from '../client/command';
import { launchInput } from '../client/launch';
import { launchFlags } from '../client/launch-flags';

export default class Tab extends FuxCommand<typeof Tab> {
  static override summary = 'Tabs: open a new one, or switch to the next, previous or Nth';
  static override usage = 'tab <new|next|prev|N> [-- COMMAND...]';
  static override examples = [
    '<%= config.bin %> tab new',
    '<%= config.bin %> tab next',
    '<%= config.bin %> tab 2',
  ];
  static override strict = false;
  static override args = {
    action: Args.string({ required: true, description: 'new, next, prev, or a tab number' }),
  };
  static override flags = { ...launchFlags };

  async run(): Promise<void> {
    const { argv } = await this.parse(Tab);
    const fux = await this.fux();
    const action = this.args.action;
    if (action === 'new') {
      const res = await fux.tab.new.mutate({
        workspace: this.workspace,
        ...launchInput(this.flags, (argv as string[]).slice(1)),
      });
      this.out(res, () => String(res.id));
      return;
    }
    const n = Number(action);
    if (action !== 'next' && action !== 'prev' && !(Number.isInteger(n) && n > 0)) {
      throw new Error(
        `${JSON.stringify(action)} is not a tab action; use new, next, prev, or a number from 1`,
      );
    }
    const which = action === 'next' || action === 'prev' ? action : n;
    const res = await fux.tab.select.mutate({ workspace: this.workspace, which });
    this.out(res, () => `tab ${res.number}`);
  }
}
