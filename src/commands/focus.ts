import { Args } from '@oclif/core';
import { FuxCommand } from '../client/command';
import { parsePaneId } from '../client/target';

const directions = ['left', 'right', 'up', 'down'] as const;
type Direction = (typeof directions)[number];

export default class Focus extends FuxCommand<typeof Focus> {
  static override summary = 'Focus a pane by id, or the nearest pane left, right, up or down';
  static override examples = ['<%= config.bin %> focus 3', '<%= config.bin %> focus left'];
  static override args = {
    target: Args.string({ required: true, description: 'a pane id or left|right|up|down' }),
  };

  async run(): Promise<void> {
    const raw = this.args.target;
    const target = (directions as readonly string[]).includes(raw) ? (raw as Direction) : parsePaneId(raw);
    const res = await (await this.fux()).focus.mutate({ workspace: this.workspace, target });
    this.out(res, () => String(res.id));
  }
}
