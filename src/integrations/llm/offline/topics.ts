import { dedupeTopics } from '../topicDedupe.ts';
import { hashString, titleCase } from '../text.ts';
import type { BrandInput, PageInput, SuggestTopicsInput, TopicSuggestion } from '../writer.ts';
import { clampTopicCount } from '../writer.ts';
import { audienceOf, keyPhrases } from './analysis.ts';
import { enforceStyle, styleRules } from '../style.ts';

type Angle = {
  title: (kw: string, ctx: Context) => string;
  brief: (kw: string, ctx: Context) => string;
};
type Context = { brand: string; audience: string; page: PageInput | undefined };

const ANGLES: Angle[] = [
  {
    title: (kw) => `${titleCase(kw)}: A Practical Guide`,
    brief: (kw, c) =>
      `Explain what ${kw} is, why it matters to ${c.audience} and how to get started, with concrete steps.`,
  },
  {
    title: (kw) => `Common ${titleCase(kw)} Mistakes and How to Avoid Them`,
    brief: (kw, c) =>
      `Walk ${c.audience} through the mistakes people make with ${kw}, why they happen and what to do instead.`,
  },
  {
    title: (kw) => `How to Choose the Right ${titleCase(kw)}`,
    brief: (kw) =>
      `Set out the criteria that matter when choosing ${kw}, the trade-offs between options and the questions to ask.`,
  },
  {
    title: (kw) => `Why ${titleCase(kw)} Matters More Than You Think`,
    brief: (kw, c) =>
      `Make the case for ${kw}: the problems it solves for ${c.audience}, what it costs to ignore and where to begin.`,
  },
  {
    title: (kw) => `A Step-by-Step ${titleCase(kw)} Checklist`,
    brief: (kw) =>
      `Give a checklist for ${kw} that a reader can follow today, each step with the reason behind it.`,
  },
  {
    title: (kw, c) => `How ${c.brand} Approaches ${titleCase(kw)}`,
    brief: (kw, c) =>
      `Show how ${c.brand} thinks about ${kw}, the principles behind its approach and what readers can borrow.`,
  },
  {
    title: (kw) => `${titleCase(kw)}: Answers to the Questions We Hear Most`,
    brief: (kw) =>
      `Answer the most frequent questions about ${kw} in plain language, one clear answer per question.`,
  },
];

/** The brand's own offerings, from its facts: subjects even when the site has little text. */
const offerings = (brand: BrandInput): string[] =>
  brand.companyFacts
    .filter((fact) => /product|service|offer|feature|industry|specialt|category/i.test(fact.kind))
    .map((fact) => fact.value.toLowerCase())
    .filter((value) => value.length >= 3 && value.split(/\s+/).length <= 6);

/** Last-resort topics about the brand itself, so even a site with no readable pages gets five. */
function brandTopics(brand: BrandInput): TopicSuggestion[] {
  const name = brand.name;
  const audience = audienceOf(brand);
  const topic = (title: string, keyword: string, brief: string): TopicSuggestion => ({
    title,
    keyword: keyword.toLowerCase(),
    brief,
    rationale: `The site says little about this yet; it introduces ${name} to new readers.`,
  });
  return [
    topic(
      `Getting Started with ${name}`,
      `${name} basics`,
      `Introduce ${name}: what it offers, who it is for and the first steps a new customer takes.`,
    ),
    topic(
      `${name} Best Practices: What We Recommend`,
      `${name} best practices`,
      `Collect the advice ${name} gives most often, each with the reason behind it.`,
    ),
    topic(
      `How ${name} Works, Step by Step`,
      `how ${name} works`,
      `Walk through how ${name} works from the first contact to the result.`,
    ),
    topic(
      `Getting the Most Value from ${name}`,
      `${name} value`,
      `Show the ways customers get more out of ${name}, with practical examples.`,
    ),
    topic(
      `${name}: Answers to the Questions We Hear Most`,
      `${name} faq`,
      `Answer the questions people ask ${name} most, one clear answer each.`,
    ),
    ...(audience
      ? [
          topic(
            `${name} for ${titleCase(audience)}`,
            `${name} for ${audience}`,
            `Explain what ${name} offers ${audience} in particular.`,
          ),
        ]
      : []),
  ];
}

/**
 * Topic ideas from what the site actually talks about: its strongest key phrases, each given an
 * angle (rotated by a hash of the phrase so the list is varied but the same every time).
 */
export function suggestTopicsOffline(input: SuggestTopicsInput): TopicSuggestion[] {
  const count = clampTopicCount(input.count);
  const rules = styleRules(input.brand);
  const audience = audienceOf(input.brand) ?? 'readers';
  const phrases = keyPhrases(input.pages, input.brand);
  const candidates: TopicSuggestion[] = [];
  phrases.slice(0, 40).forEach((entry, rank) => {
    const page = entry.pages[0];
    const ctx: Context = { brand: input.brand.name, audience, page };
    const angle = ANGLES[(hashString(entry.phrase) + rank) % ANGLES.length];
    const where = entry.pages
      .slice(0, 2)
      .map((p) => `"${p.title || p.url}"`)
      .join(' and ');
    candidates.push({
      title: angle.title(entry.phrase, ctx),
      keyword: entry.phrase,
      brief: `${angle.brief(entry.phrase, ctx)} Draw on ${where}.`,
      rationale: `"${entry.phrase}" comes up ${entry.mentions} times across ${entry.pages.length} of your pages (${where}), and no existing topic targets it yet.`,
    });
  });
  offerings(input.brand).forEach((phrase, rank) => {
    const ctx: Context = { brand: input.brand.name, audience, page: undefined };
    const angles = ANGLES.filter((angle) => !angle.title('', ctx).includes(input.brand.name)); // never "How Acme Approaches Acme …"
    const angle = angles[(hashString(phrase) + rank) % angles.length];
    candidates.push({
      title: angle.title(phrase, ctx),
      keyword: phrase,
      brief: angle.brief(phrase, ctx),
      rationale: `${input.brand.name}'s own offering: "${phrase}" is central to the brand but the site says little about it.`,
    });
  });
  candidates.push(...brandTopics(input.brand));
  const styled = candidates.map((topic) => ({
    ...topic,
    title: enforceStyle(topic.title, rules).trim(),
    brief: enforceStyle(topic.brief, rules).trim(),
  }));
  return dedupeTopics(styled, input.existingTopics, count);
}
