/** Titles longer than this are cut: a title is a label, and a hostile program could send megabytes. */
export const MAX_TITLE_CHARS = 256;

// C0 controls, DEL and C1 controls: none of them belongs in a label shown in a status line or a list.
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/g;

/** The title an OSC 0/2 set, as fux shows it: control characters removed, at most 256 characters. */
export function sanitizeTitle(raw: string): string {
  const clean = raw.replace(CONTROL_CHARS, '');
  // Count code points, not UTF-16 units, so an emoji at the cut is kept whole or dropped whole.
  const chars = Array.from(clean);
  return chars.length > MAX_TITLE_CHARS ? chars.slice(0, MAX_TITLE_CHARS).join('') : clean;
}
