/**
 * What the attach client does with each input token: keys go to the focused pane (or the popup)
 * verbatim unless they are the prefix and a binding; the mouse focuses, scrolls, selects, or is
 * passed to a program that asked for it; overlays (help, the workspace and answer pickers) and
 * copy mode take the keys while they show. It talks to the server and the screen only through
 * `ControllerDeps`, so the same controller serves a local and a remote attach.
 */
import {
  DEFAULT_MODES,
  type AttachAction,
  type AttachHistory,
  type AttachView,
  type ClientAction,
  type PaneModes,
  type PromptOption,
  type PromptOptions,
} from '../../protocol/attach';
import type { Token, MouseToken } from './input/tokens';
import { PrefixKeys, helpLines } from './input/keymap';
import { encodeFocus, encodeMouse, encodePaste, osc52 } from './input/encode';
import { CopyMode, type CopyResult } from './copy/copy-mode';
import { expandRow } from './runs';
import type { Compositor } from './render/compositor';
import type { Panel } from './overlays';
import { worktreeChoices } from './worktree-picker';

/** Input for whatever the server has focused (the popup, else the focused pane) when it arrives. */
export const FOCUSED = 'focused';

export interface ControllerDeps {
  compositor: Compositor;
  /**
   * Bytes for a pane (the focused one, or the popup); `binary` when `data` is raw bytes, one per
   * character (an X10 mouse report), rather than text.
   */
  send(pane: number | typeof FOCUSED, data: string, binary?: boolean): void;
  action(action: AttachAction): void;
  history(pane: number): Promise<AttachHistory>;
  /** The options of a blocked pane's prompt; undefined when it has none (the refusal is shown). */
  prompt(pane: number): Promise<PromptOptions | undefined>;
  detach(): void;
  /** Ask for a repaint (the caller paces them). */
  redraw(): void;
  modesOf(pane: number): PaneModes | undefined;
  /** Show a panel (help, the picker) over the panes, or none; the overlays' owner decides what shows. */
  showPanel(panel: Panel | undefined): void;
  /** Something the controller started on its own (copy mode, the answer picker) failed: report it, the session goes on. */
  failed(what: string, err: unknown): void;
}

type Overlay =
  | { kind: 'help' }
  | { kind: 'picker'; items: string[]; selected: number }
  | { kind: 'answer'; pane: number; options: PromptOption[]; selected: number }
  /** The worktree picker: `panes[i]` is the pane item i focuses. */
  | { kind: 'worktrees'; items: string[]; panes: number[]; selected: number };

/** Lines the wheel scrolls, as tmux does. */
const WHEEL_LINES = 3;

export class Controller {
  private keys = new PrefixKeys({ prefix: 'C-a', bindings: {} });
  /** The prefix's bytes ('' if a legacy terminal cannot send it), for plain typing to look for. */
  private prefixBytes = this.keys.prefixBytes();
  private keysJson = '';
  private view: AttachView | undefined;
  private overlay: Overlay | undefined;
  private copy: { pane: number; mode: CopyMode } | undefined;
  private entering = false;
  private prefixShown = false;
  private selection: { pane: number; x0: number; y0: number; x1: number; y1: number } | undefined;
  /** A kill of an agent's pane, asked in the status line (tmux's `kill-pane 3? (y/n)`): `y` does it. */
  private confirming: AttachAction | undefined;

  constructor(private readonly deps: ControllerDeps) {}

  /** A new view from the server: keys may have changed (config reload), panes may have gone. */
  setView(view: AttachView): void {
    this.view = view;
    const keysJson = JSON.stringify(view.keys);
    if (keysJson !== this.keysJson) {
      this.keysJson = keysJson;
      this.keys = new PrefixKeys(view.keys);
      this.prefixBytes = this.keys.prefixBytes();
    }
    if (this.copy && !view.panes.some((p) => p.id === this.copy!.pane)) this.leaveCopy();
    if (this.overlay?.kind === 'picker') this.showOverlay();
    const answering = this.overlay?.kind === 'answer' ? this.overlay.pane : undefined;
    if (answering !== undefined && view.panes.find((p) => p.id === answering)?.state !== 'blocked') {
      // Answered elsewhere, or the prompt went away: there is nothing left to pick.
      this.overlay = undefined;
      this.showOverlay();
    }
    if (this.overlay?.kind === 'worktrees')
      this.openWorktreePicker(this.overlay.panes[this.overlay.selected]);
  }

  /** The worktree picker, built from the view (again when it changes: agents' states move), on `keep` if it is still there. */
  private openWorktreePicker(keep?: number): void {
    const choices = worktreeChoices(this.view);
    const panes = choices.map((c) => c.pane);
    this.overlay = {
      kind: 'worktrees',
      items: choices.length ? choices.map((c) => c.label) : ['no pane works in a git checkout'],
      panes,
      selected: Math.max(0, keep === undefined ? 0 : panes.indexOf(keep)),
    };
    this.showOverlay();
  }

  /** The pane keys go to: the popup while one shows, else the focused pane. */
  target(): number | undefined {
    if (!this.view) return undefined;
    if (this.view.popup) return this.view.popup.id;
    return this.view.panes.find((p) => p.focused)?.id;
  }

  /**
   * Plain typing (printable ASCII) straight to the focused pane when nothing would take its keys
   * on the way: no copy mode, overlay or pressed prefix, and not the prefix itself among them.
   * The same bytes `handle` would send key by key, without making tokens of them: an echo's path
   * is shorter by the decoder and the key table. False: nothing done, handle the keys.
   */
  typeThrough(text: string): boolean {
    if (this.copy || this.overlay || this.confirming || this.keys.pending || this.target() === undefined)
      return false;
    if (this.prefixBytes !== '' && text.includes(this.prefixBytes)) return false;
    this.deps.send(FOCUSED, text);
    return true;
  }

  handle(token: Token): void {
    if (this.confirming) return this.confirmInput(token);
    if (this.copy) return this.copyInput(token);
    if (this.overlay) return this.overlayInput(token);
    if (token.kind === 'mouse') return this.mouse(token);
    const target = this.target();
    if (token.kind === 'paste') {
      if (target !== undefined) this.deps.send(FOCUSED, encodePaste(token.text, this.modes(target)));
      return;
    }
    if (token.kind === 'focus') {
      const bytes = target === undefined ? undefined : encodeFocus(token.focused, this.modes(target));
      if (bytes) this.deps.send(FOCUSED, bytes);
      return;
    }
    if (token.kind === 'bytes') {
      if (target !== undefined) this.deps.send(FOCUSED, token.raw);
      return;
    }
    const outcome = this.keys.handle(token);
    const prefixed = 'pending' in outcome;
    if (prefixed !== this.prefixShown) {
      // Only the marker is repainted here; a typed key's echo is the server's to draw.
      this.prefixShown = prefixed;
      this.deps.compositor.setMode(prefixed ? 'PREFIX' : undefined);
      this.deps.redraw();
    }
    if ('send' in outcome) {
      if (target !== undefined) this.deps.send(FOCUSED, outcome.send);
    } else if ('action' in outcome) {
      this.confirmOrAct(outcome.action);
    } else if ('client' in outcome) {
      this.clientAction(outcome.client);
    }
  }

  /** Run an asynchronous step whose failure is reported rather than left unhandled (which would end the process). */
  private start(what: string, step: Promise<void>): void {
    step.catch((err: unknown) => this.deps.failed(what, err));
  }

  /** An action, unless it kills a pane that runs an agent: that one is asked first. */
  private confirmOrAct(action: AttachAction): void {
    const id =
      action.kind === 'call' && action.call === 'kill' ? (action.input.id ?? this.target()) : undefined;
    const agent = this.view?.panes.find((p) => p.id === id)?.agent;
    if (agent === null || agent === undefined) return this.deps.action(action);
    this.confirming = action;
    this.deps.compositor.setMode(`kill pane ${String(id)} (${agent})? (y/n)`);
    this.deps.redraw();
  }

  /** The key after the question: `y` kills, any other key keeps the pane. */
  private confirmInput(token: Token): void {
    if (token.kind !== 'key' && token.kind !== 'bytes') return;
    const action = this.confirming!;
    this.confirming = undefined;
    this.deps.compositor.setMode(undefined);
    this.deps.redraw();
    if (token.kind === 'key' && (token.raw === 'y' || token.raw === 'Y')) this.deps.action(action);
  }

  /** A pane's input modes; a pane not drawn yet has a fresh terminal's. */
  private modes(pane: number): PaneModes {
    return this.deps.modesOf(pane) ?? DEFAULT_MODES;
  }

  private clientAction(action: ClientAction): void {
    switch (action) {
      case 'detach':
        this.deps.detach();
        return;
      case 'copy-mode': {
        const pane = this.view?.panes.find((p) => p.focused)?.id;
        if (pane !== undefined) this.start('copy mode', this.enterCopy(pane));
        return;
      }
      case 'help':
        this.overlay = { kind: 'help' };
        this.showOverlay();
        return;
      case 'workspace-picker': {
        const items = this.view?.workspaces ?? [];
        this.overlay = {
          kind: 'picker',
          items,
          selected: Math.max(0, items.indexOf(this.view?.workspace ?? '')),
        };
        this.showOverlay();
        return;
      }
      case 'answer-picker': {
        const pane = this.view?.panes.find((p) => p.focused)?.id;
        if (pane !== undefined) this.start('the answer picker', this.openAnswerPicker(pane));
        return;
      }
      case 'worktree-picker':
        this.openWorktreePicker();
        return;
      case 'send-prefix': {
        const target = this.target();
        if (target !== undefined) this.deps.send(FOCUSED, this.keys.prefixBytes());
        return;
      }
    }
  }

  /** The answer picker: the options of the pane's prompt, the cursor's one selected. */
  private async openAnswerPicker(pane: number): Promise<void> {
    const prompt = await this.deps.prompt(pane);
    if (prompt === undefined || this.overlay !== undefined || this.copy !== undefined) return;
    const selected = Math.max(
      0,
      prompt.options.findIndex((o) => o.cursor),
    );
    this.overlay = { kind: 'answer', pane, options: prompt.options, selected };
    this.showOverlay();
  }

  private showOverlay(): void {
    const o = this.overlay;
    if (!o) {
      this.deps.showPanel(undefined);
    } else if (o.kind === 'help') {
      this.deps.showPanel({
        kind: 'help',
        lines: helpLines(this.view?.keys.bindings ?? {}, this.view?.keys.prefix ?? 'C-a'),
      });
    } else if (o.kind === 'answer') {
      this.deps.showPanel({
        kind: 'picker',
        title: `answer pane ${o.pane}`,
        items: o.options.map((option) => `${option.number}. ${option.label}`),
        selected: o.selected,
      });
    } else {
      const title = o.kind === 'worktrees' ? 'worktrees' : 'workspaces';
      this.deps.showPanel({ kind: 'picker', title, items: o.items, selected: o.selected });
    }
  }

  private overlayInput(token: Token): void {
    const o = this.overlay!;
    if (token.kind !== 'key') return;
    if (o.kind === 'help') {
      // Any key closes the help, as tmux's list-keys view.
      this.overlay = undefined;
      this.showOverlay();
      return;
    }
    const name = token.key?.name;
    const count = o.kind === 'answer' ? o.options.length : o.items.length;
    if (name === 'Escape' || name === 'q' || (name === 'c' && token.key?.ctrl)) {
      this.overlay = undefined;
    } else if (name === 'Down' || name === 'j' || (name === 'n' && token.key?.ctrl)) {
      o.selected = Math.min(count - 1, o.selected + 1);
    } else if (name === 'Up' || name === 'k' || (name === 'p' && token.key?.ctrl)) {
      o.selected = Math.max(0, o.selected - 1);
    } else if (name === 'Enter') {
      this.overlay = undefined;
      this.pick(o, o.selected);
    } else if (o.kind === 'answer' && name !== undefined && /^[1-9]$/.test(name) && !token.key?.ctrl) {
      // A digit picks that option at once, as the prompt itself would take it.
      const index = o.options.findIndex((option) => option.number === Number(name));
      if (index >= 0) {
        this.overlay = undefined;
        this.pick(o, index);
      }
    }
    this.showOverlay();
  }

  /** What Enter (or a digit) on a picker's item does: switch workspace, focus a worktree's pane, or answer the prompt. */
  private pick(o: Exclude<Overlay, { kind: 'help' }>, index: number): void {
    if (o.kind === 'worktrees') {
      const pane = o.panes[index];
      if (pane !== undefined) this.deps.action({ kind: 'call', call: 'focus', input: { target: pane } });
      return;
    }
    if (o.kind === 'answer') {
      const option = o.options[index];
      if (option !== undefined)
        this.deps.action({
          kind: 'call',
          call: 'answer',
          input: { id: o.pane, choice: String(option.number) },
        });
      return;
    }
    const ws = o.items[index];
    if (ws !== undefined && ws !== this.view?.workspace)
      this.deps.action({ kind: 'switch-workspace', workspace: ws });
  }

  /** Copy mode on a pane: by key (`[`), or by the wheel (`scroll` rows up, leaving at the bottom). */
  private async enterCopy(pane: number, scroll = 0): Promise<void> {
    if (this.entering) return;
    this.entering = true;
    try {
      const history = await this.deps.history(pane);
      const rect = this.view?.panes.find((p) => p.id === pane);
      if (!rect) return;
      this.deps.compositor.setStyles(history.styles);
      const mode = new CopyMode({
        lines: history.lines.map((row) => expandRow(row, history.cols)),
        screenTop: history.screenTop,
        cols: history.cols,
        height: rect.rows,
        cursor: this.deps.compositor.state.pane(pane)?.cursor,
        exitAtBottom: scroll > 0,
      });
      this.copy = { pane, mode };
      if (scroll > 0) mode.scroll(-scroll);
      this.showCopy();
    } finally {
      this.entering = false;
    }
  }

  private showCopy(): void {
    if (!this.copy) return;
    const v = this.copy.mode.view();
    this.deps.compositor.setCopyView({ pane: this.copy.pane, ...v });
    this.deps.compositor.setMode('COPY');
    this.deps.redraw();
  }

  private leaveCopy(): void {
    this.copy = undefined;
    this.deps.compositor.setCopyView(undefined);
    this.deps.compositor.setMode(undefined);
    this.deps.redraw();
  }

  private copyInput(token: Token): void {
    const copy = this.copy!;
    if (token.kind === 'mouse') {
      const hit = this.deps.compositor.paneAt(token.x, token.y);
      if (hit?.pane !== copy.pane) return;
      // Copy mode reads pane-local cells.
      return this.copyResult(copy.mode.handle({ ...token, x: hit.x, y: hit.y }));
    }
    this.copyResult(copy.mode.handle(token));
  }

  private copyResult(result: CopyResult): void {
    if (result.yank !== undefined) this.deps.compositor.write(osc52(result.yank));
    if (result.exit) return this.leaveCopy();
    if (result.redraw) this.showCopy();
  }

  private mouse(token: MouseToken): void {
    const c = this.deps.compositor;
    if (token.action === 'press' && token.button === 0 && !token.wheel) {
      const tab = c.tabAt(token.x, token.y);
      if (tab !== undefined) {
        this.deps.action({ kind: 'call', call: 'tab.select', input: { which: tab } });
        return;
      }
    }
    const hit = c.paneAt(token.x, token.y);
    // A popup takes the mouse while it shows; clicks elsewhere do nothing.
    if (this.view?.popup && hit?.pane !== this.view.popup.id) return;
    const modes = hit ? this.modes(hit.pane) : undefined;
    const wantsMouse = modes !== undefined && modes.mouse !== 'none' && !token.shift;

    if (this.selection && (token.action === 'motion' || token.action === 'release'))
      return this.dragSelect(token);

    if (hit && token.action === 'press' && token.button === 0 && !token.wheel) {
      const focused = this.view?.panes.find((p) => p.focused)?.id;
      if (hit.pane !== focused && hit.pane !== this.view?.popup?.id)
        this.deps.action({ kind: 'call', call: 'focus', input: { target: hit.pane } });
      if (!wantsMouse) {
        this.selection = { pane: hit.pane, x0: token.x, y0: token.y, x1: token.x, y1: token.y };
        return;
      }
    }
    if (hit && wantsMouse && modes) {
      const bytes = encodeMouse(token, modes, hit.x, hit.y);
      // The X10 form's coordinates past 95 are bytes above 0x7f, not UTF-8.
      if (bytes) this.deps.send(hit.pane, bytes, !modes.mouseSgr);
      return;
    }
    if (hit && token.wheel === 'up' && hit.pane !== this.view?.popup?.id) {
      // tmux: the wheel over a pane that does not take the mouse enters copy mode and scrolls.
      this.start('copy mode', this.enterCopy(hit.pane, WHEEL_LINES));
    }
  }

  /** Drag to select on the composed screen; the release copies the text out as OSC 52. */
  private dragSelect(token: MouseToken): void {
    const s = this.selection!;
    s.x1 = token.x;
    s.y1 = token.y;
    const c = this.deps.compositor;
    const ranges = selectionRanges(s);
    if (token.action === 'release') {
      this.selection = undefined;
      const moved = s.x0 !== s.x1 || s.y0 !== s.y1;
      c.setSelection(undefined);
      if (moved) {
        const text = c.textAt(ranges);
        if (text) c.write(osc52(text));
      }
    } else {
      c.setSelection(ranges);
    }
    this.deps.redraw();
  }
}

/** The screen rows a drag covers, as a terminal selects: first row from the start, last row to the end. */
function selectionRanges(s: {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}): Array<{ y: number; from: number; to: number }> {
  const forward = s.y0 < s.y1 || (s.y0 === s.y1 && s.x0 <= s.x1);
  const [a, b] = forward
    ? [
        { x: s.x0, y: s.y0 },
        { x: s.x1, y: s.y1 },
      ]
    : [
        { x: s.x1, y: s.y1 },
        { x: s.x0, y: s.y0 },
      ];
  const out: Array<{ y: number; from: number; to: number }> = [];
  for (let y = a.y; y <= b.y; y++) {
    out.push({ y, from: y === a.y ? a.x : 0, to: y === b.y ? b.x + 1 : Number.MAX_SAFE_INTEGER });
  }
  return out;
}
