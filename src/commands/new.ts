import { FuxCommand } from '../client/command';
import { launchFlags, launchInput } from '../client/launch';

export default class New extends FuxCommand<typeof New> {
  static override summary =
    'Open a pane in the current tab, splitting the focused pane along its longer side';
  static override usage = 'new [--cwd DIR] [--env K=V] [-- COMMAND...]';
  static override examples = [
    '<%= config.bin %> new',
    '<%= config.bin %> new -- claude',
    '<%= config.bin %> new --cwd ~/src -- htop',
  ];
  static override strict = false;
  static override flags = { ...launchFlags };

  async run(): Promise<void> {
    const { argv } = await this.parse(New);
    const fux = await this.fux();
    const res = await fux.new.mutate({
      workspace: this.workspace,
      ...launchInput(this.flags, argv as string[]),
    });
    this.out(res, () => String(res.id));
  }
}
