import { Args } from '@oclif/core';
import { FuxCommand } from '../client/command';
import { parsePaneId } from '../client/target';

export default class Resize extends FuxCommand<typeof Resize> {
  static override summary = 'Grow (+n) or shrink (-n) a pane along its split axis, in cells';
  static override usage = 'resize <ID> <+n|-n>';
  static override examples = ['<%= config.bin %> resize 2 +5', '<%= config.bin %> resize 2 -- -3'];
  static override args = {
    id: Args.string({ required: true, description: 'pane id' }),
    delta: Args.string({ required: true, description: '+n or -n cells' }),
  };

  async run(): Promise<void> {
    const delta = Number(this.args.delta);
    if (!/^[+-]?\d+$/.test(this.args.delta) || delta === 0) {
      throw new Error(`${JSON.stringify(this.args.delta)} is not a size change; write +5 or -3 (cells)`);
    }
    const res = await (
      await this.fux()
    ).resize.mutate({
      workspace: this.workspace,
      id: parsePaneId(this.args.id),
      delta,
    });
    this.out(res, () =>
      res.changed ? '' : 'nothing to resize: the pane has no split in that axis, or is at its limit',
    );
  }
}
