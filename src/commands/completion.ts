import { Args, Command, Flags } from '@oclif/core';
import { complete, type CompletableCommand, type ServerFacts } from '../client/cli/complete';
import { completionScript, SHELLS } from '../client/cli/completion-scripts';
import { connect } from '../client/index';
import { listAll } from '../client/list-all';

export default class Completion extends Command {
  static override summary = 'Print a shell completion script for bash, zsh or fish';
  static override description =
    'Verbs, flags and their values complete from the commands; pane ids and workspace names from the running server (none is started for it).';
  static override examples = [
    'source <(<%= config.bin %> completion bash)   # in ~/.bashrc',
    'source <(<%= config.bin %> completion zsh)    # in ~/.zshrc, after compinit',
    '<%= config.bin %> completion fish > ~/.config/fish/completions/<%= config.bin %>.fish',
  ];
  static override strict = false;
  static override args = { shell: Args.string({ description: 'bash, zsh or fish' }) };
  static override flags = {
    complete: Flags.boolean({
      hidden: true,
      description: 'print the candidates for the words after --, the last one being completed',
    }),
  };

  async run(): Promise<void> {
    const { args, argv, flags } = await this.parse(Completion);
    if (flags.complete) {
      const candidates = await complete(
        this.config.commands as unknown as CompletableCommand[],
        argv as string[],
        serverFacts,
      );
      process.stdout.write(candidates.map((c) => `${c.value}\t${c.description}\n`).join(''));
      return;
    }
    const shell = SHELLS.find((name) => name === args.shell);
    if (shell === undefined) {
      this.error(
        `${args.shell === undefined ? 'name the shell' : `no completion for ${JSON.stringify(args.shell)}`}: \`${this.config.bin} completion bash\` (or zsh, or fish)`,
        { exit: 2 },
      );
    }
    process.stdout.write(completionScript(shell, this.config.bin));
  }
}

/** Panes and workspaces from the running server; none when no server runs (it is not started). */
async function serverFacts({
  socket,
  workspace,
}: {
  socket?: string;
  workspace?: string;
}): Promise<ServerFacts | undefined> {
  let connection;
  try {
    connection = await connect({ socket, autostart: false });
    const { workspaces } = await listAll(connection.client, { workspace });
    return {
      workspaces: workspaces.map((w) => w.name),
      panes: workspaces.flatMap((w) =>
        w.panes.map((p) => ({
          id: p.id,
          label: `${p.command.join(' ')}${p.title ? ` "${p.title}"` : ''} (${w.name})`,
        })),
      ),
    };
  } catch {
    return undefined;
  } finally {
    connection?.close();
  }
}
