import { Flags } from '@oclif/core';

/**
 * Flags shared by the verbs that start a program: where it runs and with what environment. Apart
 * from launch.ts so that the CLI's fast path (src/client/cli) can build launch input without oclif.
 */
export const launchFlags = {
  cwd: Flags.string({ description: 'working directory (default: the current one)' }),
  env: Flags.string({
    description: 'set a variable for the program, KEY=VALUE (repeatable)',
    multiple: true,
  }),
};

/** The worktree verbs: which repository they are about. */
export const repoFlags = {
  cwd: Flags.string({ description: 'a directory in the repository (default: the current one)' }),
};

/** `new` and `split`: start the program in its own git worktree (src/server/worktree). */
export const worktreeFlag = {
  worktree: Flags.string({
    description:
      "start in fux's git worktree on branch NAME of this repository, made (or reused) under worktree_root",
    helpValue: 'NAME',
  }),
};
