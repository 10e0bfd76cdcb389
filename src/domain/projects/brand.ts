import { z } from 'zod';

/**
 * The brand profile as the API shows it and a PUT may set it. The crawl learns every part; a
 * part set by PUT is kept on re-crawl unless the crawl is asked to overwrite edited parts.
 */
const text = (max: number) => z.string().trim().max(max);
const hex = z
  .string()
  .regex(/^#[0-9a-f]{6}$/i, 'a colour as #rrggbb')
  .transform((value) => value.toLowerCase());

export const Voice = z.object({
  summary: text(2000),
  person: z.enum(['first', 'second', 'third']),
  formality: z.enum(['formal', 'neutral', 'casual']),
  avgSentenceWords: z.number().min(0).max(200),
  examples: z.array(text(500)).max(10),
  /** BCP 47 tag of the site's language ("en-US") when its pages declare one; writers write in it. */
  language: z.string().trim().max(35).nullable().default(null),
});

export const CompanyFact = z.object({
  kind: z.enum(['name', 'founded', 'location', 'team', 'offer', 'proof_point', 'mission', 'other']),
  value: text(500).min(1),
  /** The page the fact came from; null for facts a user entered. */
  sourceUrl: z.string().url().nullable(),
  /** The sentence on that page the fact was read from; null when none was recorded (names, offers, facts a user entered). */
  evidence: text(600).nullable().default(null),
});

/** A source a person may give a fact: a web page, so a link to it can only ever open a page. */
const webPage = z
  .string()
  .url()
  .refine((url) => /^https?:\/\//i.test(url), 'sourceUrl must be an http:// or https:// address');

export const DoDont = z.object({
  do: z.array(text(300)).max(30),
  dont: z.array(text(300)).max(30),
});

export const CoverStyle = z.object({
  mood: z.enum(['calm', 'bold', 'playful', 'technical', 'elegant']),
  shapes: z.enum(['waves', 'circles', 'grid', 'diagonal', 'blocks']),
  typography: z.enum(['sans', 'serif', 'mono']),
});

export const PaletteColor = z.object({
  hex,
  role: z.enum(['primary', 'accent', 'background', 'text', 'other']).nullable(),
  source: z.enum(['theme-color', 'css-variable', 'frequency', 'user']),
  weight: z.number().min(0),
});

export const Palette = z.object({
  colors: z.array(PaletteColor).max(24),
  primary: hex,
  accent: hex,
  background: hex,
  text: hex,
});

export const BrandProfile = z.object({
  voice: Voice,
  voiceTraits: z.array(text(80)).max(20),
  companyFacts: z.array(CompanyFact).max(100),
  doDont: DoDont,
  coverStyle: CoverStyle,
  palette: Palette,
});
export type BrandProfile = z.infer<typeof BrandProfile>;

/** The parts a PUT may set (the palette is learned; coverStyle steers the covers drawn from it). */
export const BRAND_PARTS = [
  'voice',
  'companyFacts',
  'doDont',
  'voiceTraits',
  'coverStyle',
] as const;
export type BrandPart = (typeof BRAND_PARTS)[number];

export const BrandUpdate = z
  .object({
    voice: Voice.partial().optional(),
    companyFacts: z
      .array(CompanyFact.extend({ sourceUrl: webPage.nullable().default(null) }))
      .max(100)
      .optional(),
    doDont: DoDont.partial().optional(),
    voiceTraits: BrandProfile.shape.voiceTraits.optional(),
    coverStyle: CoverStyle.partial().optional(),
  })
  .strict()
  .refine(
    (update) => Object.keys(update).length > 0,
    'send at least one of voice, companyFacts, doDont, voiceTraits, coverStyle',
  );
export type BrandUpdate = z.infer<typeof BrandUpdate>;

/**
 * What the pipeline keeps of each crawled page: enough to research and link, small enough for an
 * event. `text` is the page's readable content as inert Markdown (headings, lists, tables); crawls
 * recorded before that hold plain text, one block a line.
 */
export type CrawledPageSummary = {
  url: string;
  title: string;
  description: string;
  headings: string[];
  text: string;
};
/** The most text kept of one page, so a fact deep in a long page can still reach a prompt. */
export const PAGE_TEXT_LIMIT = 16_000;
/** The most text kept of all pages of one crawl: a big crawl keeps less of each page, never under PAGE_TEXT_MIN. */
export const PAGES_TEXT_TOTAL = 400_000;
export const PAGE_TEXT_MIN = 4_000;

export const pageTextLimit = (pageCount: number): number =>
  Math.max(
    PAGE_TEXT_MIN,
    Math.min(PAGE_TEXT_LIMIT, Math.floor(PAGES_TEXT_TOTAL / Math.max(1, pageCount))),
  );
