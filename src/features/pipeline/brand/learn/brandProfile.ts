import { z } from 'zod';

/**
 * The brand profile as the crawl learns it (the offline writer uses it as is; the LLM mode refines
 * it). The API's public shape is src/projects/brand.ts, mapped from this one by
 * src/pipeline/brandMapping.ts. docs/brand-profile.md describes both; keep them in step.
 */

/** A fact with the page it was read from (and the sentence, as evidence). */
export const sourcedFactSchema = z.object({
  value: z.string().trim().min(1).max(600),
  sourceUrl: z.url(),
  /** The sentence the value was read from, so a reader can check it. */
  evidence: z.string().max(600).optional(),
});

export const companyFactsSchema = z.object({
  name: sourcedFactSchema.optional(),
  /** A year, e.g. "2011". */
  founded: sourcedFactSchema.optional(),
  /** A place as the site writes it, e.g. "Portland" or "Portland, Oregon". */
  location: sourcedFactSchema.optional(),
  /** Team size as a number, e.g. "40" or "200+". */
  team: sourcedFactSchema.optional(),
  /** What the company does for whom, e.g. "We help independent bakeries take orders online". */
  mission: sourcedFactSchema.optional(),
  /** Products and platform, one per entry. */
  offers: z.array(sourcedFactSchema).max(50),
  /** Claims with numbers: "500+ bakeries in 12 countries", "99.9% uptime", "4.8/5". */
  proofPoints: z.array(sourcedFactSchema).max(50),
  /** Customer quotes, verbatim. */
  testimonials: z.array(sourcedFactSchema).max(50),
});

export const voiceSchema = z.object({
  /** One or two sentences a writer can follow. */
  summary: z.string().max(1000),
  /** How the site addresses people: "we" (first), "you" (second) or neither (third). */
  person: z.enum(['first', 'second', 'third']),
  formality: z.enum(['formal', 'neutral', 'casual']),
  avgSentenceWords: z.number().min(0).max(200),
  /** Sentences from the site that show the voice. */
  examples: z.array(z.string().max(600)).max(10),
  /** BCP 47 language tag of the site, e.g. "en-US", when the pages declare one. */
  language: z.string().max(35).optional(),
});

export const doDontSchema = z.object({
  do: z.array(z.string().trim().min(1).max(300)).max(30),
  dont: z.array(z.string().trim().min(1).max(300)).max(30),
});

export const hexColorSchema = z.string().regex(/^#[0-9a-f]{6}$/, 'a lower-case #rrggbb colour');
export const colorRoleSchema = z.enum(['primary', 'accent', 'background', 'text']);

export const paletteColorSchema = z.object({
  hex: hexColorSchema,
  role: colorRoleSchema.optional(),
  /** Where the colour was found; a colour found in several ways keeps the most telling one. */
  source: z.enum(['theme-color', 'css-variable', 'frequency']),
  /** The CSS custom property that defines it, e.g. "--primary". */
  variable: z.string().optional(),
  /** Relative importance, 0–1: 1 is the most used or most explicitly declared colour. */
  weight: z.number().min(0).max(1),
});

export const paletteSchema = z.object({
  colors: z.array(paletteColorSchema).max(16),
  primary: hexColorSchema,
  accent: hexColorSchema,
  background: hexColorSchema,
  /** Readable on `background` (WCAG contrast at least 4.5 whenever the palette allows it). */
  text: hexColorSchema,
});

export const coverStyleSchema = z.object({
  mood: z.enum(['bold', 'playful', 'calm', 'minimal', 'dark', 'elegant']),
  shapes: z.enum(['geometric', 'rounded', 'organic']),
  typography: z.object({
    headingFont: z.string().max(100).optional(),
    bodyFont: z.string().max(100).optional(),
    genericFamily: z.enum(['sans-serif', 'serif', 'monospace']),
    weight: z.enum(['regular', 'bold']),
    letterCase: z.enum(['sentence', 'upper']),
  }),
  background: z.enum(['solid', 'gradient']),
});

export const brandProfileSchema = z.object({
  voice: voiceSchema,
  voiceTraits: z.array(z.string().trim().min(1).max(60)).max(20),
  companyFacts: companyFactsSchema,
  doDont: doDontSchema,
  coverStyle: coverStyleSchema,
  palette: paletteSchema,
});

export type SourcedFact = z.infer<typeof sourcedFactSchema>;
export type CompanyFacts = z.infer<typeof companyFactsSchema>;
export type Voice = z.infer<typeof voiceSchema>;
export type DoDont = z.infer<typeof doDontSchema>;
export type ColorRole = z.infer<typeof colorRoleSchema>;
export type PaletteColor = z.infer<typeof paletteColorSchema>;
export type Palette = z.infer<typeof paletteSchema>;
export type CoverStyle = z.infer<typeof coverStyleSchema>;
export type BrandProfile = z.infer<typeof brandProfileSchema>;
