import { Args, Flags } from '@oclif/core';
import { FuxCommand } from '../client/command';
import { callerEnv } from '../client/launch';
import { connect } from '../client';
import { reportOutcome, runAttach } from '../client/attach/run';
import { Notices } from '../client/attach/notices';
import { configProblem } from '../client/config-problem';

/** How long a config problem shows over the status line of an attached client. */
const CONFIG_NOTICE_MS = 10_000;

export default class Attach extends FuxCommand<typeof Attach> {
  static override summary = 'Attach this terminal to a workspace (what `fux [workspace]` does)';
  static override description =
    'Creates the workspace (with one pane running the default command) and the server if needed. Keys go to the focused pane except the prefix (default C-a); C-a ? lists the bindings, C-a d detaches.';
  static override examples = [
    '<%= config.bin %>',
    '<%= config.bin %> work',
    '<%= config.bin %> attach -w work',
  ];
  static override args = {
    workspace: Args.string({
      description: 'the workspace (default: -w, $FUX_WORKSPACE, the only one, else main)',
    }),
  };
  static override flags = {
    force: Flags.boolean({ description: 'attach even from inside a fux pane (nests fux in itself)' }),
  };

  async run(): Promise<void> {
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      throw new Error(
        'attaching needs a terminal on stdin and stdout; from a script, use verbs such as `fux list` or `fux capture`',
      );
    }
    if (process.env.FUX_PANE && !this.flags.force) {
      throw new Error(
        `this terminal is fux pane ${process.env.FUX_PANE} already: attaching here would show fux inside itself; use C-a s to switch workspace, or --force`,
      );
    }
    const env = callerEnv();
    const notices = new Notices();
    const outcome = await runAttach({
      transport: {
        open: async () => {
          const c = await connect({ socket: this.flags.socket });
          void configProblem(c.client).then((lines) => {
            if (lines.length === 0) return;
            notices.post(`config: ${lines.join('; ')}`);
            setTimeout(() => notices.post(undefined), CONFIG_NOTICE_MS).unref();
          });
          return { client: c.client, notify: c.notify, close: c.close };
        },
      },
      workspace: this.args.workspace ?? this.workspace,
      cwd: process.cwd(),
      env,
      input: process.stdin,
      output: process.stdout,
      notices,
    });
    reportOutcome(outcome, 'run `fux` again');
  }
}
