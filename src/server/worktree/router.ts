import { proc, t } from '../trpc';
import { inputs, outputs } from '../schemas';
import { panesIn } from './panes';

/** A diff is cut here so its reply fits in one frame (1 MiB, DESIGN.md §5). */
export const MAX_DIFF_BYTES = 768 * 1024;

/** The first `max` bytes of `text`, cut at a line end. */
function cut(text: string, max: number): { text: string; truncated: boolean } {
  if (Buffer.byteLength(text) <= max) return { text, truncated: false };
  const head = Buffer.from(text).subarray(0, max).toString('utf8');
  return { text: head.slice(0, head.lastIndexOf('\n') + 1), truncated: true };
}

function stateOf(changed: number, ahead: number): string {
  const parts = [changed > 0 ? 'changed' : '', ahead > 0 ? `ahead ${ahead}` : ''].filter(Boolean);
  return parts.length ? parts.join(', ') : 'clean';
}

/** `fux worktree …`: the git worktrees fux made for its agents (src/server/worktree/worktrees.ts). */
export const worktreeRouter = t.router({
  list: proc
    .meta({
      verb: 'worktree list',
      description:
        "the worktrees fux made in cwd's repository: branch, state (clean, changed, ahead N), panes",
    })
    .input(inputs.worktreeList)
    .output(outputs.worktreeList)
    .query(async ({ ctx, input }) => ({
      worktrees: (await ctx.worktrees.list(input.cwd)).map((w) => ({
        ...w,
        state: stateOf(w.changed, w.ahead),
        panes: panesIn(ctx.workspaces, w.path),
      })),
    })),
  diff: proc
    .meta({
      verb: 'worktree diff',
      description:
        "a worktree's changes against the base it was made from, as `git diff` prints them (≤ 768 KiB)",
    })
    .input(inputs.worktreeDiff)
    .output(outputs.worktreeDiff)
    .query(async ({ ctx, input }) => {
      const { text, path, base } = await ctx.worktrees.diff(input.cwd, input.name, input.color ?? false);
      return { ...cut(text, MAX_DIFF_BYTES), path, base };
    }),
  remove: proc
    .meta({
      verb: 'worktree remove',
      description:
        'close the panes working in a worktree and remove it (refused with uncommitted changes unless force); the branch stays',
    })
    .input(inputs.worktreeRemove)
    .output(outputs.worktreeRemove)
    .mutation(async ({ ctx, input }) => {
      let panes: ReturnType<typeof panesIn> = [];
      const removed = await ctx.worktrees.remove(input.cwd, input.name, input.force ?? false, (dir) => {
        panes = panesIn(ctx.workspaces, dir);
        for (const p of panes) ctx.workspaces.kill(p.workspace, p.id);
      });
      return { ...removed, panes };
    }),
});
