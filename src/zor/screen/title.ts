/** Titles longer than this are cut: a title is a label, and rules match its start. */
export const MAX_TITLE_LENGTH = 256;

/** C0 controls, DEL and C1 controls: never part of a title a rule should see. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/** The title as rules see it: control characters stripped, at most 256 characters (code points). */
export function sanitiseTitle(raw: string): string {
  const stripped = raw.replace(CONTROL_CHARACTERS, '');
  const codePoints = Array.from(stripped);
  return codePoints.length <= MAX_TITLE_LENGTH ? stripped : codePoints.slice(0, MAX_TITLE_LENGTH).join('');
}
