import { Args } from '@oclif/core';
import { FuxCommand } from '../../client/command';
import { callerDir } from '../../client/launch';
import { repoFlags } from '../../client/launch-flags';

export default class WorktreeDiff extends FuxCommand<typeof WorktreeDiff> {
  static override summary =
    "Show a worktree's changes against the branch it was made from, as `git diff` prints them";
  static override description =
    'Commits and uncommitted changes since the merge-base with the base, then untracked files as new. Colour only on a terminal; pipe it to a pager: `fux worktree diff NAME | less -R`.';
  static override examples = [
    '<%= config.bin %> worktree diff feat-login',
    '<%= config.bin %> worktree diff feat-login | less -R',
  ];
  static override args = { name: Args.string({ required: true, description: 'the worktree (its branch)' }) };
  static override flags = {
    ...repoFlags,
  };

  async run(): Promise<void> {
    const res = await (
      await this.fux()
    ).worktree.diff.query({
      cwd: callerDir(this.flags.cwd),
      name: this.args.name,
      color: process.stdout.isTTY === true && !this.flags.json,
    });
    if (res.truncated)
      process.stderr.write(
        `fux worktree diff: cut at 768 KiB; \`git -C ${res.path} diff ${res.base}\` shows all of it\n`,
      );
    this.out(res, () => res.text);
  }
}
