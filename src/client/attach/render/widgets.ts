import type { Rect } from './canvas';
import { textWidth } from './canvas';
import type { FuxScreen } from './fux-screen';
import { widgetTheme } from './theme';
import { unblessed, type UnblessedBox, type UnblessedList } from './unblessed';

export type Overlay =
  | { kind: 'help'; lines: string[] }
  | { kind: 'picker'; title: string; items: string[]; selected: number }
  | { kind: 'message'; text: string };

/** A popup to frame: its content rect in screen cells, its title, and what paints the content. */
export interface PopupFrameSpec {
  rect: Rect;
  title: string;
  paint: () => void;
}

/**
 * The popup's frame: an unblessed Box drawn around the popup's rect. Its content is a pane, so
 * after the Box renders (border, title, a blank interior) it paints the pane's cells inside,
 * in the widgets' order: an overlay added after it still covers it.
 */
class PopupFrame extends unblessed.Box {
  paintContent: (() => void) | undefined;

  override render(): ReturnType<UnblessedBox['render']> {
    const coords = super.render();
    if (coords) this.paintContent?.();
    return coords;
  }
}

/** The unblessed widgets the compositor shows over the panes: the popup frame, help, the picker, a message. */
export class Widgets {
  private readonly popup: PopupFrame;
  private readonly help: UnblessedBox;
  private readonly picker: UnblessedList;
  private readonly message: UnblessedBox;

  constructor(screen: FuxScreen) {
    this.popup = new PopupFrame({
      parent: screen,
      hidden: true,
      border: 'line',
      style: { border: widgetTheme.popupBorder },
    });
    this.help = new unblessed.Box({
      parent: screen,
      hidden: true,
      border: 'line',
      padding: { left: 1, right: 1 },
      // A line too long for the terminal is cut, not wrapped into the lines below it.
      wrap: false,
      label: ' help ',
      style: { border: widgetTheme.overlayBorder },
    });
    this.picker = new unblessed.List({
      parent: screen,
      hidden: true,
      border: 'line',
      keys: false,
      mouse: false,
      style: { border: widgetTheme.overlayBorder, selected: widgetTheme.selected },
    });
    this.message = new unblessed.Box({ parent: screen, hidden: true, style: widgetTheme.message });
  }

  /**
   * Shows what this frame needs and hides the rest, on a screen `cols` × `rows`. Returns the rects
   * the shown widgets cover (the compositor splits wide glyphs at their edges first).
   */
  layout(
    popup: PopupFrameSpec | undefined,
    overlay: Overlay | undefined,
    cols: number,
    rows: number,
  ): Rect[] {
    const covers: Rect[] = [];
    if (popup) {
      const frame = clip(
        { x: popup.rect.x - 1, y: popup.rect.y - 1, cols: popup.rect.cols + 2, rows: popup.rect.rows + 2 },
        cols,
        rows,
      );
      place(this.popup, frame);
      this.popup.setLabel(popup.title ? ` ${popup.title} ` : '');
      this.popup.paintContent = popup.paint;
      this.popup.show();
      covers.push(frame);
    } else {
      this.popup.paintContent = undefined;
      hide(this.popup);
    }

    for (const el of [this.help, this.picker, this.message]) hide(el);
    if (overlay?.kind === 'help') {
      const width = Math.max(10, ...overlay.lines.map(textWidth)) + 4;
      const rect = centred(width, overlay.lines.length + 2, cols, rows);
      place(this.help, rect);
      this.help.setContent(overlay.lines.join('\n'));
      this.help.show();
      covers.push(rect);
    } else if (overlay?.kind === 'picker') {
      const width = Math.max(textWidth(overlay.title) + 4, ...overlay.items.map(textWidth)) + 4;
      const rect = centred(width, overlay.items.length + 2, cols, rows);
      place(this.picker, rect);
      this.picker.setLabel(overlay.title ? ` ${overlay.title} ` : '');
      this.picker.setItems(overlay.items);
      this.picker.select(Math.max(0, Math.min(overlay.items.length - 1, overlay.selected)));
      this.picker.show();
      covers.push(rect);
    } else if (overlay?.kind === 'message') {
      // One line over the status line, as tmux shows a message.
      const rect = { x: 0, y: rows - 1, cols, rows: 1 };
      place(this.message, rect);
      this.message.setContent(` ${overlay.text}`);
      this.message.show();
      covers.push(rect);
    }
    return covers;
  }
}

/** unblessed clears the region of an element it hides: only hide what shows. */
function hide(el: UnblessedBox): void {
  if (!el.hidden) el.hide();
}

function place(el: UnblessedBox, rect: Rect): void {
  el.left = rect.x;
  el.top = rect.y;
  el.width = rect.cols;
  el.height = rect.rows;
}

function centred(width: number, height: number, cols: number, rows: number): Rect {
  const w = Math.max(1, Math.min(width, cols));
  const h = Math.max(1, Math.min(height, rows));
  return { x: Math.floor((cols - w) / 2), y: Math.floor((rows - h) / 2), cols: w, rows: h };
}

function clip(rect: Rect, cols: number, rows: number): Rect {
  const x = Math.max(0, rect.x);
  const y = Math.max(0, rect.y);
  return {
    x,
    y,
    cols: Math.max(0, Math.min(cols, rect.x + rect.cols) - x),
    rows: Math.max(0, Math.min(rows, rect.y + rect.rows) - y),
  };
}
