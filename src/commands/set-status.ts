import { Args } from '@oclif/core';
import { FuxCommand } from '../client/command';

export default class SetStatus extends FuxCommand<typeof SetStatus> {
  static override summary = 'Set a named status-line segment; empty text removes it';
  static override examples = [
    "<%= config.bin %> set-status build 'tests: green'",
    "<%= config.bin %> set-status build ''",
  ];
  static override args = {
    segment: Args.string({ required: true, description: 'segment name' }),
    text: Args.string({ required: true, description: 'its text ("" removes it)' }),
  };

  async run(): Promise<void> {
    const res = await (
      await this.fux()
    ).setStatus.mutate({
      workspace: this.workspace,
      segment: this.args.segment,
      text: this.args.text,
    });
    this.out(res, () => '');
  }
}
