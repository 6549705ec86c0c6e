import { FuxCommand } from '../client/command';

export default class List extends FuxCommand<typeof List> {
  static override summary = 'List workspaces, tabs and panes';
  static override examples = [
    '<%= config.bin %> list',
    '<%= config.bin %> list --json | jq .workspaces[].panes[].id',
  ];

  async run(): Promise<void> {
    const res = await (await this.fux()).list.query({ workspace: this.flags.workspace });
    this.out(res, () =>
      res.workspaces
        .map((w) => {
          const head = `${w.name} (${w.cols}x${w.rows})`;
          const rows = w.panes.map((p) => {
            const mark = p.active ? '*' : p.focused ? '+' : ' ';
            const title = p.title ? `  "${p.title}"` : '';
            const agent = p.agent ? `  ${p.agent} ${p.state}${p.unseen ? ' (unseen)' : ''}` : '';
            return `  ${mark} ${String(p.id).padStart(3)}  tab ${p.tab}  ${p.cols}x${p.rows}+${p.x}+${p.y}  pid ${p.pid}  ${p.command.join(' ')}  ${p.cwd}${agent}${title}`;
          });
          return [head, ...rows].join('\n');
        })
        .join('\n'),
    );
  }
}
