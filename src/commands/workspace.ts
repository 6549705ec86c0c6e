import { Args, Flags } from '@oclif/core';
import { FuxCommand } from '../client/command';

export default class Workspace extends FuxCommand<typeof Workspace> {
  static override summary = 'Workspaces: list them, create one, kill one, or resize one';
  static override usage = 'workspace <list|new|kill|resize> [NAME] [--size COLSxROWS]';
  static override examples = [
    '<%= config.bin %> workspace list',
    '<%= config.bin %> workspace new agents --size 200x50',
    '<%= config.bin %> workspace kill agents',
  ];
  static override args = {
    action: Args.string({ required: true, options: ['list', 'new', 'kill', 'resize'] }),
    name: Args.string({ description: 'workspace name' }),
  };
  static override flags = { size: Flags.string({ description: 'COLSxROWS, for new and resize' }) };

  private size(): { cols: number; rows: number } | undefined {
    if (!this.flags.size) return undefined;
    const m = /^(\d+)x(\d+)$/.exec(this.flags.size);
    if (!m)
      throw new Error(
        `--size ${JSON.stringify(this.flags.size)} is not COLSxROWS; write it like --size 200x50`,
      );
    return { cols: Number(m[1]), rows: Number(m[2]) };
  }

  private name(): string {
    const name = this.args.name ?? this.workspace;
    if (!name)
      throw new Error(
        `\`fux workspace ${this.args.action}\` needs a workspace name, like \`fux workspace ${this.args.action} agents\``,
      );
    return name;
  }

  async run(): Promise<void> {
    const fux = await this.fux();
    switch (this.args.action) {
      case 'list': {
        const res = await fux.workspace.list.query({});
        this.out(res, () =>
          res.workspaces
            .map((w) => `${w.name}: ${w.tabs} tabs, ${w.panes} panes, ${w.cols}x${w.rows}`)
            .join('\n'),
        );
        return;
      }
      case 'new': {
        const res = await fux.workspace.new.mutate({ name: this.name(), ...this.size() });
        this.out(res, () => res.name);
        return;
      }
      case 'kill': {
        const res = await fux.workspace.kill.mutate({ name: this.name() });
        this.out(res, () => '');
        return;
      }
      case 'resize': {
        const size = this.size();
        if (!size) throw new Error('`fux workspace resize` needs --size COLSxROWS');
        const res = await fux.workspace.resize.mutate({ workspace: this.name(), ...size });
        this.out(res, () => '');
      }
    }
  }
}
