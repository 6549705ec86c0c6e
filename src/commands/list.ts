import { FuxCommand } from '../client/command';
import { list } from '../client/cli/verbs';

export default class List extends FuxCommand<typeof List> {
  static override summary = 'List workspaces, tabs and panes';
  static override examples = [
    '<%= config.bin %> list',
    '<%= config.bin %> list --json | jq .workspaces[].panes[].id',
  ];

  async run(): Promise<void> {
    this.print(await list(await this.fux(), { workspace: this.flags.workspace }));
  }
}
