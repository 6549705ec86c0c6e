import { Args } from '@oclif/core';
import { FuxCommand } from '../client/command';
import { parsePaneId } from '../client/target';

export default class Kill extends FuxCommand<typeof Kill> {
  static override summary = 'Close a pane and end its process';
  static override args = { id: Args.string({ required: true, description: 'pane id' }) };

  async run(): Promise<void> {
    const res = await (
      await this.fux()
    ).kill.mutate({ workspace: this.workspace, id: parsePaneId(this.args.id) });
    this.out(res, () => '');
  }
}
