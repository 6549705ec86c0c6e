/** Titles longer than this are cut: a title is a label, and a hostile program could send megabytes. */
export const MAX_TITLE_CHARS = 256;

/** The title an OSC 0/2 set, as fux shows it: control characters removed, at most 256 characters. */
export function sanitizeTitle(raw: string): string {
  const kept: string[] = [];
  // Code points, not UTF-16 units, so an emoji at the cut is kept whole or dropped whole.
  for (const char of raw) {
    if (isControl(char.codePointAt(0)!)) continue;
    kept.push(char);
    if (kept.length === MAX_TITLE_CHARS) break;
  }
  return kept.join('');
}

// C0 controls, DEL and C1 controls: none of them belongs in a label shown in a status line or a list.
function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}
