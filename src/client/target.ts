/**
 * Inside a fux pane, verbs that act on "this pane" default to it, as tmux's do with TMUX_PANE:
 * FUX_PANE names the pane the command runs in, valid for FUX_WORKSPACE.
 */
export function paneFromEnv(workspace: string | undefined): number | undefined {
  const id = Number.parseInt(process.env.FUX_PANE ?? '', 10);
  if (!Number.isInteger(id) || id <= 0) return undefined;
  if (workspace && workspace !== process.env.FUX_WORKSPACE) return undefined;
  return id;
}

/** Parse a pane id argument, with a message that says what a pane id looks like. */
export function parsePaneId(text: string): number {
  const id = Number(text);
  if (!Number.isInteger(id) || id <= 0) {
    throw new Error(
      `${JSON.stringify(text)} is not a pane id; pane ids are numbers like 3 (\`fux list\` shows them)`,
    );
  }
  return id;
}
