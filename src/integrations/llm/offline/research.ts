import { capitalize, contentTokens, midSentence } from '../text.ts';
import type {
  OutlineSection,
  PageInput,
  Research,
  ResearchArticleInput,
  TopicInput,
} from '../writer.ts';
import { rankPages, topicTokensOf } from '../relevance.ts';
import { relevantSentences } from './analysis.ts';
import { factSentence, factsFor } from './facts.ts';

const NAV_HEADING =
  /^(home|about( us)?|contact( us)?|blog|menu|navigation|search|footer|privacy|cookies?|newsletter|subscribe|follow us|share( this)?|related (posts|articles)|comments?|leave a reply)$/i;

export const keywordOf = (topic: TopicInput): string =>
  (topic.keyword.trim() || topic.title.trim()).toLowerCase();

/**
 * An outline grounded in the site: why the subject matters (quoting the pages), the sections the
 * relevant pages themselves cover, how the brand approaches it (its facts), pitfalls and a checklist.
 */
export function researchOffline({ topic, brand, pages }: ResearchArticleInput): Research {
  const tokens = topicTokensOf(topic);
  const keyword = keywordOf(topic);
  const relevant = rankPages(pages, tokens);
  const quotes = relevantSentences(relevant.slice(0, 8), tokens, 16);
  const used = new Set<string>();
  const take = (candidates: string[], limit: number): string[] => {
    const out = candidates.filter((sentence) => !used.has(sentence)).slice(0, limit);
    out.forEach((sentence) => used.add(sentence));
    return out;
  };

  const outline: OutlineSection[] = [];
  const why = take(quotes, 3);
  outline.push({
    heading: `Why ${keyword} matters`,
    points: why.length
      ? why
      : [
          `${capitalize(keyword)} shapes results long before anyone measures them.`,
          `Getting ${keyword} right early is cheaper than fixing it later.`,
        ],
  });

  const taken = [topic.title, keyword, outline[0].heading];
  for (const { heading, page } of pageHeadings(relevant, tokens, taken)) {
    if (outline.length > 3) break;
    const headingTokens = new Set(contentTokens(heading));
    const points = take(
      relevantSentences([page], headingTokens.size ? headingTokens : tokens, 6),
      3,
    );
    if (points.length) outline.push({ heading, points }); // a heading the page says nothing quotable about is skipped
  }

  const facts = factsFor(brand, tokens, 3).map((fact) => factSentence(fact, brand.name));
  const brandQuotes = take(
    quotes.filter((sentence) => sentence.toLowerCase().includes(brand.name.toLowerCase())),
    1,
  );
  outline.push({
    heading: `How ${brand.name} approaches ${keyword}`,
    points: [...facts, ...brandQuotes].length
      ? [...facts, ...brandQuotes]
      : [`${brand.name} treats ${keyword} as an ongoing practice, not a one-off project.`],
  });
  outline.push({
    heading: 'Common mistakes to avoid',
    points: [
      `Treating ${keyword} as a one-off project instead of an ongoing practice.`,
      'Copying what others do without checking it against your own goals and constraints.',
      `Skipping measurement, so nobody can tell whether the work on ${keyword} is paying off.`,
    ],
  });
  const covered = outline.slice(1, -2).map((section) => midSentence(section.heading, [brand.name]));
  outline.push({
    heading: 'A practical checklist',
    points: [
      `Write down what you want ${keyword} to achieve and how you will measure it.`,
      covered.length
        ? `Work through the areas above one at a time: ${covered.join(', ')}.`
        : `Pick the one part of ${keyword} that would make the biggest difference and start there.`,
      'Start small, review the results after a few weeks and adjust.',
      `Talk to ${brand.name} if you want help putting this into practice.`,
    ],
  });

  const keyPoints = [...why, ...take(quotes, 2)].slice(0, 5);
  return {
    outline,
    keyPoints: keyPoints.length
      ? keyPoints
      : outline.map((section) => section.points[0]).slice(0, 4),
    sources: relevant.slice(0, 5).map((page) => ({ url: page.url, title: page.title || page.url })),
  };
}

/** Headings of the relevant pages worth a section: on topic first, each subject once. */
function pageHeadings(
  pages: readonly PageInput[],
  tokens: ReadonlySet<string>,
  taken: string[],
): Array<{ heading: string; page: PageInput }> {
  const seen = new Set(taken.map((text) => contentTokens(text).join(' ')));
  const found: Array<{ heading: string; page: PageInput; hits: number; order: number }> = [];
  let order = 0;
  for (const page of pages.slice(0, 5)) {
    for (const raw of page.headings) {
      const heading = raw.replace(/\s+/g, ' ').trim().replace(/[:.]$/, '');
      const key = contentTokens(heading).join(' ');
      order++;
      if (
        heading.length < 4 ||
        heading.length > 70 ||
        NAV_HEADING.test(heading) ||
        !key ||
        seen.has(key)
      )
        continue;
      seen.add(key);
      found.push({
        heading: capitalize(heading),
        page,
        hits: contentTokens(heading).filter((t) => tokens.has(t)).length,
        order,
      });
    }
  }
  return found.sort((a, b) => b.hits - a.hits || a.order - b.order);
}
