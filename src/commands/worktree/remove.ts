import { Args, Flags } from '@oclif/core';
import { createInterface } from 'node:readline/promises';
import { FuxCommand } from '../../client/command';
import { callerDir } from '../../client/launch';
import { repoFlags } from '../../client/launch-flags';

export default class WorktreeRemove extends FuxCommand<typeof WorktreeRemove> {
  static override summary =
    'Close the panes working in a worktree and remove it; its branch stays with its commits';
  static override description =
    'Refused while the worktree has uncommitted changes unless --force. Asks before closing panes unless --yes (without a terminal to ask on, --yes is needed).';
  static override examples = [
    '<%= config.bin %> worktree remove feat-login',
    '<%= config.bin %> worktree remove feat-login --force --yes',
  ];
  static override args = { name: Args.string({ required: true, description: 'the worktree (its branch)' }) };
  static override flags = {
    ...repoFlags,
    force: Flags.boolean({ description: 'remove it even with uncommitted changes (they are lost)' }),
    yes: Flags.boolean({ char: 'y', description: 'do not ask' }),
  };

  async run(): Promise<void> {
    const fux = await this.fux();
    const cwd = callerDir(this.flags.cwd);
    const name = this.args.name;
    if (!this.flags.yes) {
      const wt = (await fux.worktree.list.query({ cwd })).worktrees.find((w) => w.name === name);
      if (
        wt &&
        !(await this.confirm(
          name,
          wt.path,
          wt.panes.map((p) => p.id),
        ))
      ) {
        process.stderr.write('fux worktree remove: nothing removed\n');
        this.exit(1);
      }
    }
    const res = await fux.worktree.remove.mutate({ cwd, name, force: this.flags.force });
    this.out(res, () => {
      const closed = res.panes.length
        ? `, closed pane${res.panes.length === 1 ? '' : 's'} ${res.panes.map((p) => p.id).join(', ')}`
        : '';
      return `removed ${res.path}${closed}; branch ${res.branch} stays (\`git branch -D ${res.branch}\` deletes it)`;
    });
  }

  private async confirm(name: string, dir: string, panes: number[]): Promise<boolean> {
    if (!process.stdin.isTTY)
      throw new Error(
        `not asking without a terminal: \`fux worktree remove ${name} --yes\` removes it${panes.length ? ' and closes its panes' : ''}`,
      );
    const closing = panes.length ? ` and close pane${panes.length === 1 ? '' : 's'} ${panes.join(', ')}` : '';
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      const answer = await rl.question(`Remove worktree ${name} (${dir})${closing}? [y/N] `);
      return /^y(es)?$/i.test(answer.trim());
    } finally {
      rl.close();
    }
  }
}
