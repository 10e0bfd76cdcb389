import { createHash } from 'node:crypto';

export type ShapeKind = 'circles' | 'waves' | 'blocks' | 'stripes' | 'triangles' | 'dots';
const KINDS: ShapeKind[] = ['circles', 'waves', 'blocks', 'stripes', 'triangles', 'dots'];

/** Reads the brand's free-form words; anything unrecognised is chosen from the title's hash. */
export function shapeKind(shapes: string | undefined, random: () => number): ShapeKind {
  const text = (shapes ?? '').toLowerCase();
  if (/circle|round|bubble|orb/.test(text)) return 'circles';
  if (/wave|organic|flow|curv|fluid/.test(text)) return 'waves';
  if (/square|block|geometric|grid|rect/.test(text)) return 'blocks';
  if (/stripe|line|diagonal|band/.test(text)) return 'stripes';
  if (/triangle|angular|sharp|polygon/.test(text)) return 'triangles';
  if (/dot|halftone|speckle|point/.test(text)) return 'dots';
  return KINDS[Math.floor(random() * KINDS.length)];
}

/** Quiet moods get fewer, fainter shapes; loud ones more and stronger. */
export function intensity(mood: string | undefined): { count: number; opacity: number } {
  const text = (mood ?? '').toLowerCase();
  if (/bold|energetic|vibrant|playful|loud|dynamic|fun/.test(text))
    return { count: 7, opacity: 0.55 };
  if (/calm|minimal|elegant|serene|clean|quiet|soft|luxur/.test(text))
    return { count: 3, opacity: 0.22 };
  return { count: 5, opacity: 0.35 };
}

/** mulberry32 seeded from a SHA-256 of the seed text: the same title always draws the same shapes. */
export function seededRandom(seed: string): () => number {
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const r = (n: number): number => Math.round(n);

/**
 * The decoration, kept mostly to the right of x = 700 so the title on the left stays readable.
 * Colours alternate between primary and accent.
 */
export function shapesSvg(
  kind: ShapeKind,
  random: () => number,
  colours: [string, string],
  mood: { count: number; opacity: number },
  width: number,
  height: number,
): string {
  const between = (min: number, max: number): number => min + random() * (max - min);
  const colour = (i: number): string => colours[i % 2];
  const out: string[] = [];
  for (let i = 0; i < mood.count; i++) {
    const x = between(width * 0.6, width * 1.05);
    const y = between(-40, height + 40);
    const size = between(60, 240);
    const fill = `fill="${colour(i)}" fill-opacity="${mood.opacity}"`;
    switch (kind) {
      case 'circles':
        out.push(`<circle cx="${r(x)}" cy="${r(y)}" r="${r(size)}" ${fill}/>`);
        break;
      case 'blocks':
        out.push(
          `<rect x="${r(x - size / 2)}" y="${r(y - size / 2)}" width="${r(size)}" height="${r(size)}" rx="${r(size / 10)}" transform="rotate(${r(between(-25, 25))} ${r(x)} ${r(y)})" ${fill}/>`,
        );
        break;
      case 'triangles':
        out.push(
          `<polygon points="${r(x)},${r(y - size)} ${r(x + size)},${r(y + size * 0.7)} ${r(x - size)},${r(y + size * 0.7)}" ${fill}/>`,
        );
        break;
      case 'stripes': {
        const start = between(width * 0.45, width * 1.1);
        const band = between(30, 110);
        out.push(
          `<polygon points="${r(start)},0 ${r(start + band)},0 ${r(start + band - height * 0.6)},${height} ${r(start - height * 0.6)},${height}" ${fill}/>`,
        );
        break;
      }
      case 'waves': {
        const base = height - (i + 1) * (height / (mood.count + 2));
        const amp = between(20, 70);
        out.push(
          `<path d="M${r(width * 0.35)} ${height} L${r(width * 0.35)} ${r(base)} C${r(width * 0.55)} ${r(base - amp)} ${r(width * 0.75)} ${r(base + amp)} ${width} ${r(base - amp / 2)} L${width} ${height} Z" ${fill}/>`,
        );
        break;
      }
      case 'dots': {
        const step = 28 + i * 2;
        for (let gx = 0; gx < 6; gx++)
          for (let gy = 0; gy < 6; gy++) {
            out.push(
              `<circle cx="${r(x - 80 + gx * step)}" cy="${r(y - 80 + gy * step)}" r="${r(4 + random() * 6)}" ${fill}/>`,
            );
          }
        break;
      }
      default: {
        const unknown: never = kind;
        throw new Error(`unknown shape ${String(unknown)}`);
      }
    }
  }
  return out.join('');
}
