import { FuxCommand } from '../../client/command';
import { callerDir } from '../../client/launch';
import { repoFlags } from '../../client/launch-flags';

export default class WorktreeList extends FuxCommand<typeof WorktreeList> {
  static override summary =
    'List the git worktrees fux made in this repository: branch, state (clean, changed, ahead N) and panes';
  static override examples = ['<%= config.bin %> worktree list', '<%= config.bin %> worktree list --json'];
  static override flags = {
    ...repoFlags,
  };

  async run(): Promise<void> {
    const res = await (
      await this.fux()
    ).worktree.list.query({
      cwd: callerDir(this.flags.cwd),
    });
    this.out(res, () =>
      res.worktrees.length === 0
        ? 'no fux worktrees here; `fux new --worktree NAME -- COMMAND` makes one'
        : res.worktrees
            .map((w) => {
              const panes = w.panes.map((p) => `${p.id}${p.agent ? ` ${p.agent} ${p.state}` : ''}`);
              const where = panes.length ? `panes ${panes.join(', ')}` : 'no panes';
              return `${w.name}  ${w.state}  (from ${w.base})  ${where}  ${w.path}`;
            })
            .join('\n'),
    );
  }
}
