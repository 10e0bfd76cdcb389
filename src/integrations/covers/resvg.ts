import { Resvg } from '@resvg/resvg-js';
import type { ResvgRenderOptions } from '@resvg/resvg-js';
import { findFontFiles, preferredFamily } from './fonts.ts';
import type { CoverGenerator, CoverImage, CoverRequest, TextMode } from './port.ts';
import { buildCoverSvg } from './svg.ts';

export type ResvgCoverOptions = {
  /** Extra font files (e.g. INKSTREAM_COVER_FONT); loaded beside the system fonts. */
  fontFiles?: string[];
  /** Where to look for system fonts; defaults to the usual folders of Linux, macOS and Windows. */
  fontDirs?: string[];
  /** Skips detection: 'paths' draws the title with the built-in stroke font. */
  textMode?: TextMode;
};

type FontSetup = { textMode: TextMode; family?: string; font: ResvgRenderOptions['font'] };

/**
 * Whether a font actually draws: resvg renders <text> as nothing when it has no font at all, so
 * a one-letter probe decides between real type and the stroke-font fallback.
 */
function detectFonts(options: ResvgCoverOptions): FontSetup {
  const extra = options.fontFiles ?? [];
  const system = findFontFiles(options.fontDirs);
  const family = preferredFamily([...extra, ...system]);
  const font: ResvgRenderOptions['font'] = {
    loadSystemFonts: options.fontDirs === undefined,
    fontFiles: extra,
    fontDirs: options.fontDirs ?? [],
    ...(family ? { defaultFontFamily: family, sansSerifFamily: family } : {}),
  };
  if (options.textMode) return { textMode: options.textMode, family, font };
  const probe = `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48"><text x="4" y="40" font-size="40" font-family="${family ?? 'sans-serif'}, sans-serif">A</text></svg>`;
  const pixels = new Resvg(probe, { font }).render().pixels;
  let ink = false;
  for (let i = 3; i < pixels.length && !ink; i += 4) ink = pixels[i] > 0;
  return { textMode: ink ? 'font' : 'paths', family, font };
}

/** Renders covers to PNG with resvg; fonts are detected once, on the first cover. */
export function createResvgCoverGenerator(
  options: ResvgCoverOptions = {},
): CoverGenerator & { textMode(): TextMode } {
  let setup: FontSetup | undefined;
  const fonts = (): FontSetup => (setup ??= detectFonts(options));
  return {
    textMode: () => fonts().textMode,
    async generate(request: CoverRequest): Promise<CoverImage> {
      const { textMode, family, font } = fonts();
      const svg = buildCoverSvg(request, { textMode, fontFamily: family });
      const image = new Resvg(svg, {
        font: textMode === 'font' ? font : { loadSystemFonts: false },
        fitTo: { mode: 'original' },
      }).render();
      return { png: image.asPng(), svg, width: image.width, height: image.height, textMode };
    },
  };
}
