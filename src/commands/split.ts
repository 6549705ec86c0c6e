import { Args, Flags } from '@oclif/core';
import { FuxCommand } from '../client/command';
import { split } from '../client/cli/verbs';
import { launchFlags, worktreeFlag } from '../client/launch-flags';

export default class Split extends FuxCommand<typeof Split> {
  static override summary = 'Split a pane: v puts the new pane to the right, h below; prints the new id';
  static override description =
    "The letter names the line between the two panes: v a vertical one (the new pane to the right, like prefix |), h a horizontal one (below, like prefix -). That is the reverse of tmux's flags: `fux split v` is `tmux split-window -h`, `fux split h` is `tmux split-window -v`.";
  static override usage = 'split <h|v> [--target ID] [--cwd DIR] [--worktree NAME] [-- COMMAND...]';
  static override examples = [
    '<%= config.bin %> split v -- claude',
    '<%= config.bin %> split h --target 2',
    '<%= config.bin %> split v --worktree fix-tests -- codex',
  ];
  static override strict = false;
  static override args = {
    direction: Args.string({
      required: true,
      options: ['h', 'v'],
      description: "v: side by side (tmux's -h); h: stacked (tmux's -v)",
    }),
  };
  static override flags = {
    ...launchFlags,
    ...worktreeFlag,
    target: Flags.integer({
      char: 't',
      description: 'pane to split (default: this pane inside fux, else the focused one)',
    }),
  };

  async run(): Promise<void> {
    const { argv } = await this.parse(Split);
    this.print(
      await split(await this.fux(), {
        workspace: this.workspace,
        direction: this.args.direction as 'h' | 'v',
        target: this.flags.target,
        cwd: this.flags.cwd,
        env: this.flags.env,
        worktree: this.flags.worktree,
        command: (argv as string[]).slice(1),
      }),
    );
  }
}
