import type { LlmProvider, TokenUsage } from './port.ts';

/**
 * What the writer needs to know about the brand. Structural and minimal so the crawler's brand
 * profile maps straight in.
 */
export type BrandInput = {
  name: string;
  /** A few sentences describing how the brand writes. */
  voice: string;
  voiceTraits: string[];
  companyFacts: CompanyFact[];
  doDont: { do: string[]; dont: string[] };
};

export type CompanyFact = { kind: string; value: string; sourceUrl?: string };

/** One crawled page of the site. */
export type PageInput = {
  url: string;
  title: string;
  description?: string;
  headings: string[];
  text: string;
};

export type TopicInput = { title: string; keyword: string; brief: string };

/** A topic, article or page a new topic must not repeat; `url` marks a page of the site or a published article (compared as a page). */
export type ExistingTopic = {
  title: string;
  keyword?: string;
  status: string;
  url?: string;
  heading?: string;
};

export type TopicSuggestion = { title: string; keyword: string; brief: string; rationale: string };

export type OutlineSection = { heading: string; points: string[] };

export type Source = { url: string; title: string };

/** A point of the research with the crawled page and the passage of it that supports the point. */
export type Evidence = { point: string; url: string; quote: string };

/** `evidence` is what a model grounds its points in; the offline writer gives none. */
export type Research = {
  outline: OutlineSection[];
  keyPoints: string[];
  sources: Source[];
  evidence?: Evidence[];
};

export type InternalLink = { url: string; anchor: string };

/** A sentence of the draft with the page and the quoted passage supporting it. */
export type Claim = { sentence: string; url: string; quote: string };

/** `kind: 'brief'`: material for a writer (what the offline writer produces), not an article to publish as it is. */
export type Draft = {
  title: string;
  description: string;
  body: string;
  tags: string[];
  internalLinks: InternalLink[];
  claims?: Claim[];
  kind?: 'brief';
};

export type RevisionResult = { body: string; summary: string };

/** Every result says what produced it, so offline output is marked as such downstream. */
export type Generated<T> = T & { usage: TokenUsage; model: string; provider: LlmProvider };

/** `model` is the project's model setting; the offline writer ignores it. */
export type SuggestTopicsInput = {
  brand: BrandInput;
  pages: PageInput[];
  existingTopics: ExistingTopic[];
  count: number;
  model?: string;
};
export type ResearchArticleInput = {
  topic: TopicInput;
  brand: BrandInput;
  pages: PageInput[];
  model?: string;
};
/** `publishedArticles`: the project's own published articles, which the draft may link to as well. */
export type WriteArticleInput = {
  topic: TopicInput;
  brand: BrandInput;
  research: Research;
  pages: PageInput[];
  publishedArticles?: Source[];
  model?: string;
};
/**
 * `topic` and `outline` say what the article is for; `pages` are the crawled pages the reviser may
 * draw facts from (the writer picks those relevant to the instruction).
 */
export type ReviseArticleInput = {
  body: string;
  instruction: string;
  brand: BrandInput;
  topic: TopicInput;
  outline: OutlineSection[];
  pages: PageInput[];
  model?: string;
};

/** The content tasks of the pipeline; implemented over an LLM and by the offline writer. */
export interface ContentWriter {
  readonly provider: LlmProvider;
  /** Between 5 and 10 topics that are not near-duplicates of existing ones (rejected ones included). */
  suggestTopics(input: SuggestTopicsInput): Promise<Generated<{ topics: TopicSuggestion[] }>>;
  /** An outline and sources drawn from the crawled pages relevant to the topic. */
  researchArticle(input: ResearchArticleInput): Promise<Generated<Research>>;
  /** The article: `body` is MDX markdown without frontmatter and without the title heading. */
  writeArticle(input: WriteArticleInput): Promise<Generated<Draft>>;
  reviseArticle(input: ReviseArticleInput): Promise<Generated<RevisionResult>>;
}

export const MIN_TOPICS = 5;
export const MAX_TOPICS = 10;

export const clampTopicCount = (count: number): number =>
  Math.min(
    MAX_TOPICS,
    Math.max(MIN_TOPICS, Number.isFinite(count) ? Math.round(count) : MIN_TOPICS),
  );
