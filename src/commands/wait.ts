import { Args, Flags } from '@oclif/core';
import { FuxCommand } from '../client/command';
import { parsePaneId } from '../client/target';
import { agentState } from '../protocol/agent-state';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `30` (seconds), `30s`, `500ms`, `1.5m`, `2h` → milliseconds. */
function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  const ms = match ? Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 's']!) : Number.NaN;
  if (!Number.isFinite(ms) || ms < 1 || ms > 2 ** 31 - 1) {
    throw new Error(
      `--timeout ${JSON.stringify(text)} is not a duration; write it like 30 (seconds), 30s, 500ms, 2m`,
    );
  }
  return ms;
}

export default class Wait extends FuxCommand<typeof Wait> {
  static override summary = "Wait until panes' agents reach a state";
  static override description =
    "Waits for a transition into the state that came after the pane's last input (or its start), " +
    'even one before the wait began, so "send a prompt, then wait for idle" holds however fast the ' +
    'agent answers and cannot be satisfied by the prompt the agent showed before it read yours; --now ' +
    'lets a pane already in the state count. Every pane must get there, or with --any the first one. ' +
    "`exited` is the agent's exit (the shell is back) or the pane's program ending, never idle. Exits 1 " +
    'with a message on timeout, when a pane closes first, or when its agent exits first (unless you ' +
    'wait for exited or none).';
  static override usage = 'wait <ID...> --state STATE [--any] [--timeout T] [--now]';
  static override examples = [
    "<%= config.bin %> send-keys 2 'fix the failing test' Enter; <%= config.bin %> wait 2 --state idle",
    '<%= config.bin %> wait 2 3 --state blocked --any --timeout 10m',
    '<%= config.bin %> wait 2 --state idle --now',
  ];
  static override strict = false;
  static override args = { ids: Args.string({ required: true, description: 'pane ids' }) };
  static override flags = {
    state: Flags.option({
      options: agentState.options,
      char: 's',
      required: true,
      description: 'the state to wait for',
    })(),
    any: Flags.boolean({ description: 'the first pane to get there is enough (default: every pane)' }),
    timeout: Flags.string({
      char: 't',
      description: 'give up after this long: 30 (seconds), 30s, 500ms, 2m',
    }),
    now: Flags.boolean({ description: 'a pane already in the state counts' }),
  };

  async run(): Promise<void> {
    const { argv } = await this.parse(Wait);
    const ids = (argv as string[]).map(parsePaneId);
    const timeoutMs = this.flags.timeout === undefined ? undefined : parseDuration(this.flags.timeout);
    const fux = await this.fux();
    await new Promise<void>((resolve, reject) => {
      let answered = false;
      const sub = fux.wait.subscribe(
        {
          workspace: this.workspace,
          ids,
          state: this.flags.state,
          any: this.flags.any,
          now: this.flags.now,
          timeoutMs,
        },
        {
          onData: (result) => {
            answered = true;
            this.out(result, () =>
              result.panes
                .map((p) => `${p.id} ${p.state}${p.agent === null ? '' : ` (${p.agent})`}`)
                .join('\n'),
            );
          },
          onError: (err) => reject(err),
          onComplete: () =>
            answered ? resolve() : reject(new Error('the server ended the wait without an answer')),
        },
      );
      process.once('SIGINT', () => {
        sub.unsubscribe();
        reject(new Error('interrupted'));
      });
    });
  }
}
