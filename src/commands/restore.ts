import { Flags } from '@oclif/core';
import { FuxCommand } from '../client/command';

export default class Restore extends FuxCommand<typeof Restore> {
  static override summary = 'Bring back the workspaces of the last server that were not restored at start';
  static override description =
    'A server that did not stop cleanly is restored by the next one by itself (config `restore`). ' +
    'After a clean stop, or with restore = "never", the last journal is kept instead, and this brings it back: ' +
    'workspaces, tabs, layouts, history, shells in their directories, agents resumed in their sessions.';
  static override examples = [
    '<%= config.bin %> restore --list',
    '<%= config.bin %> restore --dry-run',
    '<%= config.bin %> restore',
  ];
  static override flags = {
    list: Flags.boolean({ description: 'show what would come back, and do nothing', exclusive: ['dry-run'] }),
    'dry-run': Flags.boolean({
      description: 'show how each pane would run (the exact command), and do nothing',
    }),
  };

  async run(): Promise<void> {
    const client = await this.fux();
    if (this.flags.list || this.flags['dry-run']) {
      const plan = await client.restore.plan.query({});
      this.out(plan, () => {
        if (plan.file === null)
          return 'nothing to restore: no journal was kept (a crashed server is restored at start)';
        const head = `from ${plan.file}, saved ${new Date(plan.savedAt!).toLocaleString()}`;
        const rows = plan.workspaces.flatMap((w) => {
          const state = w.restored ? '' : `  (would not come back: ${w.reason})`;
          const panes = this.flags['dry-run']
            ? w.panes.map(
                (p) =>
                  `  ${String(p.id).padStart(3)}  ${p.how.padEnd(13)}  ${p.command.join(' ')}  in ${p.cwd}${p.reason ? `  (${p.reason})` : ''}`,
              )
            : w.saved.map(
                (p) =>
                  `  ${String(p.id).padStart(3)}  tab ${p.tab}  ${p.command.join(' ')}  ${p.cwd}${p.agent ? `  ${p.agent}` : ''}  ${p.lines} lines`,
              );
          return [`${w.workspace}${state}`, ...panes];
        });
        return [head, ...rows].join('\n');
      });
      return;
    }
    const res = await client.restore.run.mutate({});
    this.out(res, () => {
      if (res.workspaces.length === 0) return 'nothing to restore: no journal was kept';
      return res.workspaces
        .map((w) =>
          w.restored
            ? `${w.workspace}: ${w.panes.length} panes back (${w.panes.filter((p) => p.how === 'resumed').length} agents resumed)`
            : `${w.workspace}: not restored: ${w.reason}`,
        )
        .join('\n');
    });
    if (res.workspaces.length > 0 && res.workspaces.every((w) => !w.restored)) {
      process.stderr.write('fux restore: nothing came back; `fux restore --dry-run` says why\n');
      this.exit(1);
    }
  }
}
