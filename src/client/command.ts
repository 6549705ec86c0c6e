import { Command, Flags, type Interfaces } from '@oclif/core';
import { TRPCClientError } from '@trpc/client';
import { printResult, type VerbResult } from './cli/output';
import { connect, type Connection, type FuxClient } from './index';
import { configProblem } from './config-problem';

/**
 * The base of every fux verb: the flags they all share (`--socket`, `-w`, `--json`), a connection
 * to the server (started if none runs), and one way to report errors: what went wrong and what to
 * do, on stderr, with exit 1.
 */
export abstract class FuxCommand<T extends typeof Command> extends Command {
  static override baseFlags = {
    socket: Flags.string({
      description: 'server socket (default: $FUX_SOCKET, else the per-user socket)',
      helpGroup: 'GLOBAL',
    }),
    workspace: Flags.string({
      char: 'w',
      description: 'workspace (default: $FUX_WORKSPACE, else the only one, else main)',
      helpGroup: 'GLOBAL',
    }),
    json: Flags.boolean({ description: 'print JSON instead of text', helpGroup: 'GLOBAL' }),
  };

  protected flags!: Interfaces.InferredFlags<(typeof FuxCommand)['baseFlags'] & T['flags']>;
  protected args!: Interfaces.InferredArgs<T['args']>;
  private connection: Connection | undefined;
  /** Settles once the server's config problem, if any, is printed. */
  private configNotice: Promise<void> | undefined;

  override async init(): Promise<void> {
    await super.init();
    const { flags, args } = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (this.ctor as typeof FuxCommand).baseFlags,
      args: this.ctor.args,
      strict: this.ctor.strict,
    });
    this.flags = flags as typeof this.flags;
    this.args = args as typeof this.args;
  }

  /** The workspace this invocation addresses, if the user named one. */
  protected get workspace(): string | undefined {
    return this.flags.workspace ?? (process.env.FUX_WORKSPACE || undefined);
  }

  protected async fux(opts: { autostart?: boolean } = {}): Promise<FuxClient> {
    if (!this.connection) {
      this.connection = await connect({ socket: this.flags.socket, autostart: opts.autostart });
      // A bad config.toml would otherwise be news only to the server log.
      this.configNotice = configProblem(this.connection.client).then((lines) => {
        for (const line of lines) process.stderr.write(`fux: config: ${line}\n`);
      });
    }
    return this.connection.client;
  }

  /** Print `value` as JSON with --json, else the human text. */
  protected out(value: unknown, human: () => string): void {
    this.print({ value, human });
  }

  /** Print what one of the shared verbs (cli/verbs.ts) answered. */
  protected print(result: VerbResult): void {
    printResult(this.flags.json, result);
  }

  protected override async catch(
    err: Error & { exitCode?: number; oclif?: { exit: number } },
  ): Promise<void> {
    if (err.oclif) throw err; // oclif's own parse errors and exits already say what to do
    const message = err instanceof TRPCClientError ? err.message : err.message || String(err);
    process.stderr.write(`fux ${(this.id ?? '').replaceAll(':', ' ')}: ${message}\n`);
    // Output to a pipe is written asynchronously: let what was printed before the error reach the
    // reader before the exit (a subscription cut off as too slow had printed events still queued).
    await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
    this.exit(1);
  }

  protected override async finally(err: Error | undefined): Promise<void> {
    await this.configNotice;
    this.connection?.close();
    await super.finally(err);
  }
}
