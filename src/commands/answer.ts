import { Args } from '@oclif/core';
import { FuxCommand } from '../client/command';
import { parsePaneId } from '../client/target';

export default class Answer extends FuxCommand<typeof Answer> {
  static override summary =
    "Answer a blocked agent's prompt without attaching: yes, always, no or an option number";
  static override description =
    "The choice is checked against the options the prompt shows now, read with the agent's rule set: " +
    'yes is the plain accept, always the one that stops asking ("don\'t ask again", "always allow"), ' +
    'no the one that declines, N the option numbered N. Then the keys that choose it are sent. ' +
    'Refused when the pane is not blocked on a prompt, or the option is not there. ' +
    'Without a choice, prints the options.';
  static override usage = 'answer <ID> [yes|no|always|N]';
  static override examples = [
    '<%= config.bin %> answer 2 yes',
    '<%= config.bin %> answer 2 always',
    '<%= config.bin %> answer 2 3',
    '<%= config.bin %> answer 2',
  ];
  static override args = {
    id: Args.string({ required: true, description: 'pane id' }),
    choice: Args.string({ description: 'yes, no, always, or an option number' }),
  };

  async run(): Promise<void> {
    const fux = await this.fux();
    const target = { workspace: this.workspace, id: parsePaneId(this.args.id) };
    if (this.args.choice === undefined) {
      const res = await fux.prompt.query(target);
      this.out(res, () =>
        res.options.map((o) => `${o.cursor ? '>' : ' '} ${o.number}. ${o.label}`).join('\n'),
      );
      return;
    }
    const res = await fux.answer.mutate({ ...target, choice: this.args.choice });
    this.out(res, () => `pane ${target.id}: chose ${res.option.number}. ${res.option.label}`);
  }
}
