import { clampRgb, converter, differenceCiede2000, formatHex, parse, wcagContrast } from 'culori';
import type { ColorRole, Palette, PaletteColor } from './brandProfile.ts';
import type { CssFacts } from './cssFacts.ts';

const toOklch = converter('oklch');
const deltaE = differenceCiede2000();
const NEAR_IDENTICAL = 3; // CIEDE2000: about what a careful eye can still tell apart
const MAX_COLORS = 12;
const sourceRank = { 'theme-color': 3, 'css-variable': 2, frequency: 1 } as const;

type Candidate = {
  hex: string;
  score: number;
  source: PaletteColor['source'];
  variable?: string;
  namedRole?: ColorRole;
  backgroundUses: number;
  textUses: number;
  order: number;
};

/** A solid colour as lower-case #rrggbb; undefined for unparseable or mostly transparent values. */
export function toHex(value: string): string | undefined {
  const color = parse(value.trim());
  if (!color || (color.alpha !== undefined && color.alpha < 0.5)) return undefined;
  return formatHex(clampRgb(color));
}

const chroma = (hex: string) => toOklch(hex)?.c ?? 0;
const contrast = (a: string, b: string) => wcagContrast(a, b);

/** Role a custom property's name announces, e.g. --color-primary or --bg; shades and states announce none. */
function roleFromName(name: string): ColorRole | undefined {
  if (
    /(?:^|-)(?:\d{2,3}|hover|active|focus|muted|light|lighter|dark|darker|subtle|alpha|shadow|border)(?:-|$)/i.test(
      name,
    )
  )
    return undefined;
  if (/(?:^|-)(?:bg|background|surface|canvas|paper|base)(?:-|$)/i.test(name)) return 'background';
  if (/(?:^|-)(?:text|fg|foreground|ink|body|copy)(?:-|$)/i.test(name)) return 'text';
  if (/(?:^|-)(?:primary|brand|main)(?:-|$)/i.test(name)) return 'primary';
  if (/(?:^|-)(?:accent|secondary|highlight|tertiary|cta)(?:-|$)/i.test(name)) return 'accent';
  return undefined;
}

/**
 * The site's palette: the theme-color, colour custom properties and the colours its CSS uses
 * most, near-identical shades merged; then primary, accent, background and a text colour that
 * stays readable on that background.
 */
export function buildPalette(input: { themeColors: readonly string[]; css: CssFacts }): Palette {
  const candidates = new Map<string, Candidate>();
  let order = 0;
  const add = (
    hex: string,
    score: number,
    source: PaletteColor['source'],
    extra: Partial<Candidate> = {},
  ) => {
    const existing = candidates.get(hex);
    if (!existing) {
      candidates.set(hex, {
        hex,
        score,
        source,
        backgroundUses: 0,
        textUses: 0,
        order: order++,
        ...extra,
      });
      return;
    }
    existing.score += score;
    existing.backgroundUses += extra.backgroundUses ?? 0;
    existing.textUses += extra.textUses ?? 0;
    if (sourceRank[source] > sourceRank[existing.source])
      Object.assign(existing, { source, variable: extra.variable ?? existing.variable });
    existing.namedRole ??= extra.namedRole;
  };

  for (const value of new Set(input.themeColors)) {
    const hex = toHex(value);
    if (hex) add(hex, 6, 'theme-color');
  }
  for (const { name, value } of input.css.variables) {
    const hex = toHex(value);
    const namedRole = roleFromName(name.replace(/^--/, ''));
    if (hex) add(hex, namedRole ? 4 : 1, 'css-variable', { variable: name, namedRole });
  }
  for (const use of input.css.colorUses) {
    const hex = toHex(use.token);
    if (!hex) continue;
    const background = /^background|^fill$/.test(use.property);
    add(hex, 1, 'frequency', {
      backgroundUses: background ? 1 : 0,
      textUses: use.property === 'color' ? 1 : 0,
    });
  }

  const kept = mergeNearIdentical([...candidates.values()]).slice(0, MAX_COLORS);
  const roles = chooseRoles(kept);
  const maxScore = Math.max(1, ...kept.map((c) => c.score));
  const colors: PaletteColor[] = kept.map((c) => {
    const role = (Object.keys(roles) as ColorRole[]).find((r) => roles[r] === c.hex);
    return {
      hex: c.hex,
      ...(role ? { role } : {}),
      source: c.source,
      ...(c.variable ? { variable: c.variable } : {}),
      weight: Math.round((c.score / maxScore) * 1000) / 1000,
    };
  });
  return { colors, ...roles };
}

function mergeNearIdentical(candidates: Candidate[]): Candidate[] {
  const sorted = [...candidates].sort(
    (a, b) => b.score - a.score || sourceRank[b.source] - sourceRank[a.source] || a.order - b.order,
  );
  const kept: Candidate[] = [];
  for (const candidate of sorted) {
    const twin = kept.find((k) => deltaE(k.hex, candidate.hex) < NEAR_IDENTICAL);
    if (!twin) {
      kept.push({ ...candidate });
      continue;
    }
    twin.score += candidate.score;
    twin.backgroundUses += candidate.backgroundUses;
    twin.textUses += candidate.textUses;
    if (sourceRank[candidate.source] > sourceRank[twin.source])
      Object.assign(twin, { source: candidate.source, variable: candidate.variable });
    twin.namedRole ??= candidate.namedRole;
  }
  return kept.sort((a, b) => b.score - a.score || a.order - b.order);
}

function chooseRoles(kept: readonly Candidate[]): Record<ColorRole, string> {
  const named = (role: ColorRole) => kept.find((c) => c.namedRole === role)?.hex;
  const chromatic = kept.filter((c) => chroma(c.hex) >= 0.05);
  const theme = kept.find((c) => c.source === 'theme-color' && chroma(c.hex) >= 0.05)?.hex;
  const primary = named('primary') ?? theme ?? chromatic[0]?.hex ?? kept[0]?.hex ?? '#2563eb';

  const namedAccent = named('accent');
  const accent =
    (namedAccent && deltaE(namedAccent, primary) >= 10 ? namedAccent : undefined) ??
    chromatic.find((c) => deltaE(c.hex, primary) >= 15)?.hex ??
    rotateHue(primary, 150);

  const usedAsBackground = [...kept]
    .filter((c) => c.backgroundUses > 0)
    .sort((a, b) => b.backgroundUses - a.backgroundUses || b.score - a.score);
  const background = named('background') ?? usedAsBackground[0]?.hex ?? '#ffffff';

  const readable = (hex: string | undefined) =>
    hex && contrast(hex, background) >= 4.5 ? hex : undefined;
  const usedAsText = [...kept]
    .filter((c) => c.textUses > 0)
    .sort((a, b) => b.textUses - a.textUses || b.score - a.score);
  const text =
    readable(named('text')) ??
    usedAsText.map((c) => readable(c.hex)).find(Boolean) ??
    kept.map((c) => readable(c.hex)).find((hex) => hex && chroma(hex) < 0.05) ??
    (contrast('#111111', background) >= contrast('#ffffff', background) ? '#111111' : '#ffffff');
  return { primary, accent, background, text };
}

function rotateHue(hex: string, degrees: number): string {
  const color = toOklch(hex);
  if (!color) return hex;
  return formatHex(clampRgb({ ...color, h: ((color.h ?? 0) + degrees) % 360 }));
}
