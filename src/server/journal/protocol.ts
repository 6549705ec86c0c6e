import { z } from 'zod';
import { restoredPane } from '../events';

/** The inputs and outputs of the `restore.*` procedures (`fux restore`). */
export const restoreInputs = {
  plan: z.object({}),
  run: z.object({}),
};

const savedPaneView = z.object({
  id: z.number(),
  tab: z.number().describe("the tab's number, from 1"),
  command: z.array(z.string()).describe('what it ran'),
  cwd: z.string(),
  agent: z.string().nullable(),
  title: z.string(),
  lines: z.number().describe('lines of history kept'),
});

export const restoreOutputs = {
  plan: z.object({
    file: z.string().nullable().describe('the journal `fux restore` would bring back; null: none'),
    savedAt: z.number().nullable(),
    workspaces: z.array(
      z.object({
        workspace: z.string(),
        restored: z.boolean().describe('whether it would come back (reason says why not)'),
        reason: z.string().nullable(),
        saved: z.array(savedPaneView),
        panes: z.array(restoredPane).describe('how each pane would come back'),
      }),
    ),
  }),
  run: z.object({
    workspaces: z.array(
      z.object({
        workspace: z.string(),
        restored: z.boolean(),
        reason: z.string().nullable(),
        panes: z.array(restoredPane),
      }),
    ),
  }),
};

export type RestorePlanView = z.infer<typeof restoreOutputs.plan>;
