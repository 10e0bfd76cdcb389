import { formatHex, parse, wcagContrast } from 'culori';
import type { CoverPalette, CoverRequest, TextMode } from './port.ts';
import { COVER_HEIGHT, COVER_WIDTH } from './port.ts';
import { intensity, seededRandom, shapeKind, shapesSvg } from './shapes.ts';
import { STROKE_ADVANCE_EM, strokeLinePath } from './strokeFont.ts';
import { escapeMarkup } from '../../core/markupText.ts';

const DEFAULT_PALETTE: CoverPalette = {
  primary: '#1f3a5f',
  accent: '#f2a541',
  background: '#f7f5f0',
  text: '#14213d',
};

/** Average advance of a bold sans letter, in em; generous so lines never run off the card. */
const FONT_ADVANCE_EM = 0.62;
const TEXT_LEFT = 116;
const TEXT_MAX_WIDTH = 640;

export type SvgOptions = { textMode: TextMode; fontFamily?: string };

const fontFamily = (family: string | undefined): string =>
  family ? `${family}, sans-serif` : 'sans-serif';

const colour = (value: string | undefined, fallback: string): string => {
  const parsed = value ? parse(value) : undefined;
  return parsed ? formatHex(parsed) : fallback;
};

/** The palette's colours, with the text colour swapped for near-black or white if it would be hard to read. */
export function readablePalette(palette: Partial<CoverPalette>): CoverPalette {
  const background = colour(palette.background, DEFAULT_PALETTE.background);
  let text = colour(palette.text, DEFAULT_PALETTE.text);
  if (wcagContrast(text, background) < 4.5)
    text =
      wcagContrast('#111111', background) >= wcagContrast('#ffffff', background)
        ? '#111111'
        : '#ffffff';
  return {
    primary: colour(palette.primary, DEFAULT_PALETTE.primary),
    accent: colour(palette.accent, DEFAULT_PALETTE.accent),
    background,
    text,
  };
}

/** Greedy word wrap by estimated width; a word longer than a line is cut, overflow ends in "…". */
export function wrapTitle(title: string, maxChars: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  const wordsList = title
    .trim()
    .split(/\s+/)
    .flatMap((word) => word.match(new RegExp(`.{1,${maxChars}}`, 'gu')) ?? []);
  for (const word of wordsList) {
    if (!line) line = word;
    else if (`${line} ${word}`.length <= maxChars) line = `${line} ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = `${kept[maxLines - 1].slice(0, maxChars - 1).replace(/\s+\S*$/, '')}…`;
  return kept;
}

/** The largest size at which the title fits in four lines. */
function fitTitle(title: string, advanceEm: number): { size: number; lines: string[] } {
  for (const size of [76, 68, 60, 52, 46, 40]) {
    const maxChars = Math.floor(TEXT_MAX_WIDTH / (size * advanceEm));
    const lines = wrapTitle(title, maxChars, 4);
    if (!lines[lines.length - 1].endsWith('…') || size === 40) return { size, lines };
  }
  throw new Error('unreachable');
}

/** The cover as an SVG document; deterministic for the same request. */
export function buildCoverSvg(request: CoverRequest, options: SvgOptions): string {
  const { width, height } = { width: COVER_WIDTH, height: COVER_HEIGHT };
  const palette = readablePalette(request.palette);
  const random = seededRandom(
    `${request.title}\u0000${request.style?.mood ?? ''}\u0000${request.style?.shapes ?? ''}`,
  );
  const kind = shapeKind(request.style?.shapes, random);
  const decoration = shapesSvg(
    kind,
    random,
    [palette.primary, palette.accent],
    intensity(request.style?.mood),
    width,
    height,
  );

  const title = request.title.trim() || 'Untitled';
  const { size, lines } = fitTitle(
    title,
    options.textMode === 'font' ? FONT_ADVANCE_EM : STROKE_ADVANCE_EM,
  );
  const lineHeight = Math.round(size * 1.18);
  const blockHeight = lineHeight * (lines.length - 1) + size;
  const top = Math.round((height - 70 - blockHeight) / 2);
  const baselines = lines.map((_, i) => top + Math.round(size * 0.8) + i * lineHeight);

  const titleSvg =
    options.textMode === 'font'
      ? `<text font-family="${escapeMarkup(fontFamily(options.fontFamily))}" font-weight="700" font-size="${size}" fill="${palette.text}">${lines
          .map(
            (line, i) =>
              `<tspan x="${TEXT_LEFT}" y="${baselines[i]}">${escapeMarkup(line)}</tspan>`,
          )
          .join('')}</text>`
      : `<path d="${lines.map((line, i) => strokeLinePath(line, TEXT_LEFT, baselines[i], size)).join('')}" fill="none" stroke="${palette.text}" stroke-width="${Math.max(3, Math.round(size / 11))}" stroke-linecap="round" stroke-linejoin="round"/>`;

  const brand = request.brandName?.trim();
  const brandSvg = !brand
    ? ''
    : options.textMode === 'font'
      ? `<text x="${TEXT_LEFT}" y="${height - 56}" font-family="${escapeMarkup(fontFamily(options.fontFamily))}" font-size="28" font-weight="700" fill="${palette.primary}">${escapeMarkup(brand)}</text>`
      : `<path d="${strokeLinePath(brand, TEXT_LEFT, height - 56, 28)}" fill="none" stroke="${palette.primary}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>`;

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="${width}" height="${height}" fill="${palette.background}"/>${decoration}` +
    `<rect x="80" y="${top}" width="10" height="${blockHeight}" rx="5" fill="${palette.accent}"/>${titleSvg}${brandSvg}</svg>`
  );
}
