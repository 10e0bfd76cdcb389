import { converter } from 'culori';
import type { CoverStyle, Palette, Voice } from './brandProfile.ts';
import { firstFamily, genericFamilyOf, type CssFacts } from './cssFacts.ts';

const toOklch = converter('oklch');

/** Median corner radius in px; pill shapes (999px, 50%) count as 24px so they do not dominate. */
function medianRadius(radii: readonly string[]): number | undefined {
  const values = radii
    .flatMap((radius) => {
      const first = radius.trim().split(/\s+/)[0];
      if (/%$/.test(first)) return [parseFloat(first) >= 25 ? 24 : 8];
      const px = /^([\d.]+)(px|rem|em)?$/.exec(first);
      if (!px) return [];
      const value = parseFloat(px[1]) * (px[2] === 'rem' || px[2] === 'em' ? 16 : 1);
      return [Math.min(value, 24)];
    })
    .sort((a, b) => a - b);
  return values.length === 0 ? undefined : values[Math.floor(values.length / 2)];
}

const mostCommon = (items: readonly string[]) => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
};

/** How article covers should look, derived from the palette, the voice and the site's CSS. */
export function deriveCoverStyle(input: {
  palette: Palette;
  formality: Voice['formality'];
  css: CssFacts;
}): CoverStyle {
  const { palette, formality, css } = input;
  const primary = toOklch(palette.primary);
  const background = toOklch(palette.background);
  const primaryChroma = primary?.c ?? 0;
  const mood: CoverStyle['mood'] =
    (background?.l ?? 1) < 0.35
      ? 'dark'
      : primaryChroma < 0.04
        ? 'minimal'
        : primaryChroma >= 0.12 && formality === 'casual'
          ? 'playful'
          : primaryChroma >= 0.15
            ? 'bold'
            : formality === 'formal'
              ? 'elegant'
              : 'calm';

  const radius = medianRadius(css.radii);
  const shapes: CoverStyle['shapes'] =
    radius === undefined || radius < 4
      ? 'geometric'
      : radius >= 12 && formality === 'casual'
        ? 'organic'
        : 'rounded';

  const headingStack = mostCommon(css.headingFonts) ?? mostCommon(css.bodyFonts);
  const bodyStack = mostCommon(css.bodyFonts);
  const headingFont = headingStack ? firstFamily(headingStack) : undefined;
  const bodyFont = bodyStack ? firstFamily(bodyStack) : undefined;
  const weight = mostCommon(css.headingWeights);
  return {
    mood,
    shapes,
    typography: {
      ...(headingFont ? { headingFont } : {}),
      ...(bodyFont ? { bodyFont } : {}),
      genericFamily: headingStack ? genericFamilyOf(headingStack) : 'sans-serif',
      weight: weight && /^(?:normal|lighter|[1-5]00)$/.test(weight) ? 'regular' : 'bold',
      letterCase: mostCommon(css.headingTransforms) === 'uppercase' ? 'upper' : 'sentence',
    },
    background: css.gradients > 0 ? 'gradient' : 'solid',
  };
}
