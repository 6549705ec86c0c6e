import { FuxCommand } from '../client/command';
import { newPane } from '../client/cli/verbs';
import { launchFlags, worktreeFlag } from '../client/launch-flags';

export default class New extends FuxCommand<typeof New> {
  static override summary =
    'Open a pane in the current tab, splitting the focused pane along its longer side';
  static override usage = 'new [--cwd DIR] [--env K=V] [--worktree NAME] [-- COMMAND...]';
  static override examples = [
    '<%= config.bin %> new',
    '<%= config.bin %> new -- claude',
    '<%= config.bin %> new --cwd ~/src -- htop',
    '<%= config.bin %> new --worktree feat-login -- claude',
  ];
  static override strict = false;
  static override flags = { ...launchFlags, ...worktreeFlag };

  async run(): Promise<void> {
    const { argv } = await this.parse(New);
    this.print(
      await newPane(await this.fux(), {
        workspace: this.workspace,
        cwd: this.flags.cwd,
        env: this.flags.env,
        worktree: this.flags.worktree,
        command: argv as string[],
      }),
    );
  }
}
