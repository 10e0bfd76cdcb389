import type { z } from 'zod';
import { addUsage } from './port.ts';
import type { GenerateObjectResult, LlmPort, TokenUsage } from './port.ts';
import { fitList, focusOf, fitText, PROMPT_BUDGET, TOPIC_BRIEF_MAX } from './promptBudget.ts';
import { pageContext } from './pageContext.ts';
import { existingTopicsList, MDX_RULES, pagesDigest, WRITER_SYSTEM } from './prompts.ts';
import { rankPages, topicTokensOf } from './relevance.ts';
import { revisionPrompt } from './revisePrompt.ts';
import { bannedTermMatches, enforceStyle, styleRules, type StyleRules } from './style.ts';
import { MAX_OUTPUT_TOKENS } from './tokenCaps.ts';
import { dedupeTopics } from './topicDedupe.ts';
import { clampTopicCount, MIN_TOPICS } from './writer.ts';
import type {
  BrandInput,
  ContentWriter,
  Draft,
  Evidence,
  Generated,
  OutlineSection,
  PageInput,
  TopicInput,
} from './writer.ts';
import { DraftAnswer, ResearchAnswer, RevisionAnswer, TopicsAnswer } from './writerSchemas.ts';

/** Pages about the topic first, so the digest's budget goes to what the article needs. */
const pagesFor = (topic: TopicInput, pages: readonly PageInput[]): PageInput[] => {
  const ranked = rankPages(pages, topicTokensOf(topic));
  return [...ranked, ...pages.filter((page) => !ranked.includes(page))];
};

/** What the page excerpts are chosen by: the topic's words, and each outline section's own. */
const topicText = (topic: TopicInput): string =>
  `${topic.title} ${topic.keyword} ${fitText(topic.brief, 300)}`;
const sectionQueries = (outline: readonly OutlineSection[]) =>
  outline.map((section) => ({
    label: section.heading,
    text: `${section.heading} ${section.points.join(' ')}`,
  }));

const describeTopic = (topic: TopicInput): string =>
  `Title: ${fitText(topic.title, PROMPT_BUDGET.pageTitle)}\nPrimary keyword: ${fitText(topic.keyword, PROMPT_BUDGET.pageTitle) || '(none; choose one from the title)'}\nBrief: ${fitText(topic.brief, TOPIC_BRIEF_MAX) || '(none)'}`;

/** What the site is about, as the pages the model is shown tell it: the focus for ranking existing topics. */
const siteTexts = (pages: readonly PageInput[]): string[] =>
  pages.map((page) => `${page.title} ${page.description ?? ''} ${page.headings.join(' ')}`);

const evidenceList = (evidence: readonly Evidence[]): string =>
  evidence.length
    ? fitList(
        evidence,
        PROMPT_BUDGET.evidence,
        (item) => `- ${item.point} — "${item.quote}" (${item.url})`,
      )
    : '(none given)';

/** The content tasks over a language model: prompts, schemas, and checks on what comes back. */
export function createLlmWriter(llm: LlmPort): ContentWriter {
  return {
    provider: llm.provider,

    async suggestTopics(input) {
      const count = clampTopicCount(input.count);
      const ask = (exclude: string) =>
        llm.generateObject({
          schema: TopicsAnswer,
          schemaName: 'topic_suggestions',
          model: input.model,
          temperature: 0.8,
          maxOutputTokens: MAX_OUTPUT_TOKENS.topicSuggestions,
          system: WRITER_SYSTEM(input.brand),
          prompt: `Suggest ${count + 4} blog article topics for ${input.brand.name}, grounded in what the site below offers and who it serves.
Each topic: a specific title (at most 70 characters), the primary search keyword (2-4 words, lowercase), a brief (2-3 sentences: the angle and what to cover) and a rationale (why this topic, naming the pages that support it).
Do not repeat or closely paraphrase any of these topics; the rejected ones were turned down on purpose:
${exclude}

The site's pages:
${pagesDigest(input.pages)}`,
        });
      const first = await ask(
        existingTopicsList(input.existingTopics, focusOf(siteTexts(input.pages))),
      );
      let topics = dedupeTopics(first.value.topics, input.existingTopics, count);
      let usage: TokenUsage = first.usage;
      if (topics.length < MIN_TOPICS) {
        const seen = [
          ...input.existingTopics,
          ...first.value.topics.map((t) => ({ ...t, status: 'already suggested' })),
        ];
        // The model's own first ideas are what it would repeat: they lead the list this time.
        const more = await ask(
          existingTopicsList(
            seen,
            focusOf([
              ...siteTexts(input.pages),
              ...first.value.topics.map((t) => `${t.title} ${t.keyword}`),
            ]),
          ),
        );
        usage = addUsage(usage, more.usage);
        topics = dedupeTopics([...topics, ...more.value.topics], input.existingTopics, count);
      }
      return { topics, usage, model: first.model, provider: first.provider };
    },

    async researchArticle(input) {
      const pages = pagesFor(input.topic, input.pages);
      const result = await llm.generateObject({
        schema: ResearchAnswer,
        schemaName: 'article_research',
        model: input.model,
        temperature: 0.3,
        maxOutputTokens: MAX_OUTPUT_TOKENS.research,
        system: WRITER_SYSTEM(input.brand),
        prompt: `Plan an article of at least 800 words.
${describeTopic(input.topic)}

Give an outline of 4-8 sections (heading plus the points each covers), the key points a reader must take away, and the sources: only pages from the list below that support the article, with their exact URL and title.
Give evidence for every point that states a figure, a date, a price, a comparison or anything about health: the point, the URL of the page it comes from, and the passage of that page that supports it, quoted word for word. A point you cannot quote a page for does not belong in the plan.

${pageContext(pages, [{ label: input.topic.title, text: topicText(input.topic) }], topicText(input.topic))}`,
      });
      const known = new Map(input.pages.map((page) => [page.url, page]));
      const sources = result.value.sources.filter((source) => known.has(source.url));
      const evidence = result.value.evidence.filter((item) => known.has(item.url));
      return {
        ...result.value,
        sources,
        evidence,
        usage: result.usage,
        model: result.model,
        provider: result.provider,
      };
    },

    async writeArticle(input) {
      const pages = pagesFor(input.topic, input.pages);
      const result = await llm.generateObject({
        schema: DraftAnswer,
        schemaName: 'article_draft',
        model: input.model,
        temperature: 0.7,
        maxOutputTokens: MAX_OUTPUT_TOKENS.draft,
        system: `${WRITER_SYSTEM(input.brand)}\n\n${MDX_RULES}`,
        prompt: `Write the article. At least 800 words: an introduction, one section per outline entry, and a conclusion.
Use the primary keyword naturally in the title, the introduction, at least one heading and the conclusion.
Link 2-5 times to the most relevant pages of the site (listed below) where they help the reader, and list those links in internalLinks.
The description is a meta description of at most 160 characters; tags are 3-6 lowercase topics.
Every sentence that states a number, a percentage, a year, a price, a superlative or anything about health goes in claims, with the URL of the page that supports it and the passage of that page quoted word for word (or a company fact, with its URL). Write no such sentence you cannot quote a page or a company fact for. Link only to the site's pages and published articles listed below.
${describeTopic(input.topic)}

Outline:
${input.research.outline.map((s) => `## ${s.heading}\n${s.points.map((p) => `- ${p}`).join('\n')}`).join('\n')}

Key points: ${input.research.keyPoints.join(' | ')}

Evidence (point — "passage" (URL)):
${evidenceList(input.research.evidence ?? [])}

Articles already published on the site (you may link to these too):
${input.publishedArticles?.length ? fitList(input.publishedArticles, PROMPT_BUDGET.publishedArticles, (article) => `- ${article.title} (${article.url})`) : '(none yet)'}

${pageContext(pages, sectionQueries(input.research.outline), topicText(input.topic))}`,
      });
      return withDraftChecks(
        result,
        [
          ...input.pages.map((page) => page.url),
          ...(input.publishedArticles ?? []).map((article) => article.url),
        ],
        input.brand,
      );
    },

    async reviseArticle(input) {
      const result = await llm.generateObject({
        schema: RevisionAnswer,
        schemaName: 'article_revision',
        model: input.model,
        temperature: 0.4,
        maxOutputTokens: MAX_OUTPUT_TOKENS.revision,
        system: `${WRITER_SYSTEM(input.brand)}\n\n${MDX_RULES}`,
        prompt: revisionPrompt(input),
      });
      const rules = styleRules(input.brand);
      const body = enforceStyle(result.value.body, rules);
      const summary = [result.value.summary, leftForTheWriter(body, rules)]
        .filter(Boolean)
        .join(' ');
      return { body, summary, usage: result.usage, model: result.model, provider: result.provider };
    },
  };
}

/** The banned terms with no plain equivalent that still stand, named so an editor can rephrase them. */
function leftForTheWriter(body: string, rules: StyleRules): string {
  const counts = new Map<string, number>();
  for (const match of bannedTermMatches(body, rules))
    counts.set(match.term, (counts.get(match.term) ?? 0) + 1);
  if (counts.size === 0) return '';
  return `Still uses terms the brand's don'ts rule out, left for an editor to rephrase: ${[...counts].map(([term, n]) => `"${term}" (${n}×)`).join(', ')}.`;
}

/** The model's draft, minus a stray H1 and banned terms, with internal links only to pages and published articles that exist. */
function withDraftChecks(
  result: GenerateObjectResult<z.infer<typeof DraftAnswer>>,
  linkable: readonly string[],
  brand: BrandInput,
): Generated<Draft> {
  const rules = styleRules(brand);
  const body = enforceStyle(result.value.body.replace(/^\s*# [^\n]*\n+/, ''), rules);
  const known = new Set(linkable);
  const internalLinks = result.value.internalLinks.filter(
    (link) => known.has(link.url) && body.includes(link.url),
  );
  return {
    title: enforceStyle(result.value.title, rules),
    description: enforceStyle(result.value.description, rules),
    body: body.endsWith('\n') ? body : `${body}\n`,
    tags: [...new Set(result.value.tags.map((tag) => tag.toLowerCase().trim()).filter(Boolean))],
    internalLinks,
    claims: result.value.claims,
    usage: result.usage,
    model: result.model,
    provider: result.provider,
  };
}
