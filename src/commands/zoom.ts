import { Args } from '@oclif/core';
import { FuxCommand } from '../client/command';
import { parsePaneId } from '../client/target';

export default class Zoom extends FuxCommand<typeof Zoom> {
  static override summary = 'Toggle a pane (default: the focused one) filling its tab';
  static override args = { id: Args.string({ description: 'pane id' }) };

  async run(): Promise<void> {
    const id = this.args.id === undefined ? undefined : parsePaneId(this.args.id);
    const res = await (await this.fux()).zoom.mutate({ workspace: this.workspace, id });
    this.out(res, () => `pane ${res.id} ${res.zoomed ? 'zoomed' : 'unzoomed'}`);
  }
}
