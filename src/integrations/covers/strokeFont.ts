/**
 * A single-stroke capital font drawn as SVG paths, for machines with no font at all: resvg draws
 * nothing for <text> without one, and a cover must still show its title. Glyphs sit on a 4×6
 * grid (y down); strokes are separated by "|".
 */
const GLYPHS: Record<string, string> = {
  A: '0,6 0,2 2,0 4,2 4,6|0,4 4,4',
  B: '0,0 0,6 3,6 4,5 4,4 3,3 0,3|0,0 3,0 4,1 4,2 3,3',
  C: '4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5',
  D: '0,0 0,6 2,6 4,4 4,2 2,0 0,0',
  E: '4,0 0,0 0,6 4,6|0,3 3,3',
  F: '4,0 0,0 0,6|0,3 3,3',
  G: '4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,3 2,3',
  H: '0,0 0,6|4,0 4,6|0,3 4,3',
  I: '1,0 3,0|2,0 2,6|1,6 3,6',
  J: '4,0 4,5 3,6 1,6 0,5',
  K: '0,0 0,6|4,0 0,4|1,3 4,6',
  L: '0,0 0,6 4,6',
  M: '0,6 0,0 2,3 4,0 4,6',
  N: '0,6 0,0 4,6 4,0',
  O: '1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0',
  P: '0,6 0,0 3,0 4,1 4,2 3,3 0,3',
  Q: '1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0|2,4 4,6',
  R: '0,6 0,0 3,0 4,1 4,2 3,3 0,3|2,3 4,6',
  S: '4,1 3,0 1,0 0,1 0,2 1,3 3,3 4,4 4,5 3,6 1,6 0,5',
  T: '0,0 4,0|2,0 2,6',
  U: '0,0 0,5 1,6 3,6 4,5 4,0',
  V: '0,0 2,6 4,0',
  W: '0,0 1,6 2,3 3,6 4,0',
  X: '0,0 4,6|4,0 0,6',
  Y: '0,0 2,3 4,0|2,3 2,6',
  Z: '0,0 4,0 0,6 4,6',
  0: '1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0|4,1 0,5',
  1: '1,1 2,0 2,6|1,6 3,6',
  2: '0,1 1,0 3,0 4,1 4,2 0,6 4,6',
  3: '0,1 1,0 3,0 4,1 4,2 3,3 4,4 4,5 3,6 1,6 0,5|1,3 3,3',
  4: '3,6 3,0 0,4 4,4',
  5: '4,0 0,0 0,3 3,3 4,4 4,5 3,6 1,6 0,5',
  6: '3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,4 3,3 0,3',
  7: '0,0 4,0 1,6',
  8: '1,3 0,2 0,1 1,0 3,0 4,1 4,2 3,3 1,3 0,4 0,5 1,6 3,6 4,5 4,4 3,3',
  9: '4,3 1,3 0,2 0,1 1,0 3,0 4,1 4,5 3,6 1,6',
  '.': '2,5.8 2,6',
  ',': '2,5.5 1.5,7',
  '!': '2,0 2,4|2,5.8 2,6',
  '?': '0,1 1,0 3,0 4,1 4,2 2,3.5 2,4.2|2,5.8 2,6',
  "'": '2,0 2,1.5',
  '"': '1,0 1,1.5|3,0 3,1.5',
  '-': '1,3 3,3',
  ':': '2,1.8 2,2|2,4.8 2,5',
  ';': '2,1.8 2,2|2,4.8 1.5,6.5',
  '&': '4,6 1,2 1,1 2,0 3,1 3,2 0,4 0,5 1,6 2,6 4,4',
  '/': '0,6 4,0',
  '(': '3,0 2,1 2,5 3,6',
  ')': '1,0 2,1 2,5 1,6',
  '+': '2,1.5 2,4.5|0.5,3 3.5,3',
  '#': '1,1 1,5|3,1 3,5|0,2 4,2|0,4 4,4',
  '%': '0,6 4,0|0,0 1,0 1,1 0,1 0,0|3,5 4,5 4,6 3,6 3,5',
  $: '4,1 3,0.5 1,0.5 0,1.5 1,3 3,3 4,4.5 3,5.5 1,5.5 0,5|2,0 2,6',
  '@': '3,4 3,2 1,2 1,4 3,4 4,3 4,1 3,0 1,0 0,1 0,5 1,6 4,6',
  '<': '3,1 1,3 3,5',
  '>': '1,1 3,3 1,5',
  '=': '0.5,2 3.5,2|0.5,4 3.5,4',
  '[': '3,0 2,0 2,6 3,6',
  ']': '1,0 2,0 2,6 1,6',
  '*': '2,1.5 2,4.5|0.7,2.2 3.3,3.8|3.3,2.2 0.7,3.8',
  _: '0,6 4,6',
};

/** Horizontal advance per character, in em, so the layout can wrap lines for this font. */
export const STROKE_ADVANCE_EM = 0.75;

/** Folds accents ("é" → "E") and upper-cases; characters without a glyph become "?". */
export const strokeText = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[–—]/g, '-');

/** The path data of one line starting at (x, baseline y); capitals are 0.75 × fontSize tall. */
export function strokeLinePath(text: string, x: number, y: number, fontSize: number): string {
  const capHeight = fontSize * 0.75;
  const unit = capHeight / 6;
  const top = y - capHeight;
  const parts: string[] = [];
  let cursor = x;
  for (const char of strokeText(text)) {
    const glyph = char === ' ' ? '' : (GLYPHS[char] ?? GLYPHS['?']);
    for (const stroke of glyph.split('|').filter(Boolean)) {
      const points = stroke.split(' ').map((pair) => pair.split(',').map(Number));
      parts.push(
        points
          .map(
            ([gx, gy], i) =>
              `${i ? 'L' : 'M'}${round(cursor + gx * unit)} ${round(top + gy * unit)}`,
          )
          .join(''),
      );
    }
    cursor += fontSize * STROKE_ADVANCE_EM; // 4 units of glyph and 2 of space
  }
  return parts.join('');
}

const round = (n: number): number => Math.round(n * 10) / 10;
