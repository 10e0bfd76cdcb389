/**
 * WCAG 2.x contrast, computed in the browser for the palette swatches. Colours arrive from the API
 * but are checked here again: only a strict `#rrggbb` ever reaches a style attribute.
 */
const HEX = /^#[0-9a-f]{6}$/i;

/** The colour as lower-case `#rrggbb`, or null when it is anything else (a name, a CSS fragment). */
export function safeHex(value: unknown): string | null {
  return typeof value === 'string' && HEX.test(value) ? value.toLowerCase() : null;
}

/** Relative luminance (WCAG 2.x) of a `#rrggbb` colour. */
export function relativeLuminance(hex: string): number {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The contrast ratio of two `#rrggbb` colours, 1 to 21; null when either is not one. */
export function contrastRatio(a: string, b: string): number | null {
  const first = safeHex(a);
  const second = safeHex(b);
  if (!first || !second) return null;
  const [light, dark] = [relativeLuminance(first), relativeLuminance(second)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** Shown as "4.52:1": rounded down, so a figure shown as passing never fails. */
export const formatRatio = (ratio: number): string =>
  `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;

/** What the ratio allows for text (WCAG AA): normal text from 4.5, large text from 3. */
export function wcagLevel(ratio: number): 'AAA' | 'AA' | 'AA large' | 'fails' {
  if (ratio >= 7) return 'AAA';
  if (ratio >= 4.5) return 'AA';
  if (ratio >= 3) return 'AA large';
  return 'fails';
}

/**
 * The title colour a cover is drawn with: the palette's text colour, or near-black or white
 * (whichever reads better) when it has less than 4.5 on the background, as the server does.
 */
export function coverTextColour(text: string, background: string): string {
  const ratio = contrastRatio(text, background);
  if (ratio !== null && ratio >= 4.5) return text.toLowerCase();
  return (contrastRatio('#111111', background) ?? 0) >= (contrastRatio('#ffffff', background) ?? 0)
    ? '#111111'
    : '#ffffff';
}
