import type { Gate } from './gate';

/**
 * How a reply is streamed. The agents draw their "working" state only while a response is in
 * flight, so captures slow the stream down or hold it open at the end until released.
 */
export interface Pacing {
  /** Send only the opening events (the model "thinking") until this opens, then the content. */
  readonly contentAfter?: Gate;
  /** Spread the reply's chunks evenly over this long; 0 sends everything at once. */
  readonly durationMs?: number;
  /** Keep the stream open after the content, before the closing events, until this opens. */
  readonly holdUntil?: Gate;
}

/** A plain assistant message. */
export interface TextReply extends Pacing {
  readonly kind: 'text';
  readonly text: string;
}

/**
 * A tool call in the agent's own vocabulary: Claude Code's `Bash`/`Write`/`Edit` with their
 * input object, or Codex's `exec_command` function with its arguments object.
 */
export interface ToolCallReply extends Pacing {
  readonly kind: 'tool_call';
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** Text streamed before the call, as a model explaining what it is about to do. */
  readonly preamble?: string;
}

export type Reply = TextReply | ToolCallReply;

/** What the server answers a main request with when the script has run out. */
export const DEFAULT_REPLY: TextReply = { kind: 'text', text: 'Done.' };

export function text(body: string, pacing: Pacing = {}): TextReply {
  return { kind: 'text', text: body, ...pacing };
}

/** Claude Code's shell tool; commands that change files (e.g. `touch`) make it ask permission. */
export function claudeBash(command: string, description: string, pacing: Pacing = {}): ToolCallReply {
  return { kind: 'tool_call', name: 'Bash', input: { command, description }, ...pacing };
}

/** Claude Code's file-creation tool, which asks before writing outside an accepted-edits mode. */
export function claudeWrite(filePath: string, content: string, pacing: Pacing = {}): ToolCallReply {
  return { kind: 'tool_call', name: 'Write', input: { file_path: filePath, content }, ...pacing };
}

/** Claude Code's multiple-choice question to the user, drawn as a select list. */
export function claudeAskUserQuestion(
  question: string,
  header: string,
  options: ReadonlyArray<{ label: string; description: string }>,
  pacing: Pacing = {},
): ToolCallReply {
  return {
    kind: 'tool_call',
    name: 'AskUserQuestion',
    input: { questions: [{ question, header, options, multiSelect: false }] },
    ...pacing,
  };
}

/** Claude Code's switch into plan mode, which it grants without asking. */
export function claudeEnterPlanMode(pacing: Pacing = {}): ToolCallReply {
  return { kind: 'tool_call', name: 'EnterPlanMode', input: {}, ...pacing };
}

/** Claude Code's request to leave plan mode with a plan, which the user must approve. */
export function claudeExitPlanMode(plan: string, pacing: Pacing = {}): ToolCallReply {
  return { kind: 'tool_call', name: 'ExitPlanMode', input: { plan }, ...pacing };
}

/**
 * Codex's shell tool. `require_escalated` asks to leave the sandbox, which under
 * `approval_policy = "on-request"` is what makes Codex show its approval prompt.
 */
export function codexExec(
  cmd: string,
  options: { escalated: boolean; justification?: string } & Pacing,
): ToolCallReply {
  const { escalated, justification, ...pacing } = options;
  const input: Record<string, unknown> = { cmd };
  if (escalated) {
    input.sandbox_permissions = 'require_escalated';
    input.justification = justification ?? 'The fake model needs to run this outside the sandbox.';
  }
  return { kind: 'tool_call', name: 'exec_command', input, ...pacing };
}

/** Gemini CLI's shell tool, which asks before running anything not allowed in its settings. */
export function geminiShell(command: string, description: string, pacing: Pacing = {}): ToolCallReply {
  return { kind: 'tool_call', name: 'run_shell_command', input: { command, description }, ...pacing };
}

/** Gemini CLI's file-writing tool, which asks before writing. */
export function geminiWriteFile(filePath: string, content: string, pacing: Pacing = {}): ToolCallReply {
  return { kind: 'tool_call', name: 'write_file', input: { file_path: filePath, content }, ...pacing };
}

/** OpenCode's shell tool; asks when the config sets `permission.bash` to "ask". */
export function opencodeBash(command: string, description: string, pacing: Pacing = {}): ToolCallReply {
  return { kind: 'tool_call', name: 'bash', input: { command, description }, ...pacing };
}

/** OpenCode's file-writing tool; asks when the config sets `permission.edit` to "ask". */
export function opencodeWrite(filePath: string, content: string, pacing: Pacing = {}): ToolCallReply {
  return { kind: 'tool_call', name: 'write', input: { filePath, content }, ...pacing };
}
