/**
 * Text placed where lines mean something (commit subjects and trailers, pull request titles,
 * table cells, log lines): one line, no control characters, at most `max` characters. A newline
 * in a title must not start a `Co-authored-by:` trailer or end a Markdown table row.
 *
 * Line breaks, tabs and every other C0/C1 control, Unicode line and paragraph separators, and the
 * bidirectional overrides that make text read differently from what it is become one space.
 */
const CONTROLS_AND_BIDI =
  '\\p{Cc}\\p{Zl}\\p{Zp}\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
const BREAKING = new RegExp(`[${CONTROLS_AND_BIDI}\\s]+`, 'gu');
/** A control character, line separator or bidirectional mark anywhere in the text: refused where a field is one plain line. */
export const CONTROL_OR_BIDI = new RegExp(`[${CONTROLS_AND_BIDI}]`, 'u');

export function oneLine(text: string, max: number): string {
  const line = text.replace(BREAKING, ' ').trim();
  const chars = [...line]; // code points, so a cut never splits a surrogate pair
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : line;
}
