import { mdxLink, mdxLinkDestination } from '../../../mdx/mdxSyntax.ts';
import { rankPages, topicTokensOf } from '../relevance.ts';
import { casualize, enforceStyle, formalize, styleRules } from '../style.ts';
import { capitalize, escapeMdxText, hashString, midSentence, truncateAtWord } from '../text.ts';
import type { BrandInput, Draft, InternalLink, OutlineSection, Source, WriteArticleInput } from '../writer.ts';
import { keyPhrases } from './analysis.ts';
import { factSentence } from './facts.ts';
import { keywordOf } from './research.ts';

const HOOKS = [
  (kw: string) => `${capitalize(kw)} is one of those subjects that looks simple from the outside and turns out to have real depth.`,
  (kw: string) => `Few things shape the result as quietly as ${kw}.`,
  (kw: string) => `If you have ever wondered how to get ${kw} right, you are in good company.`,
  (kw: string) => `Ask ten people about ${kw} and you will hear ten different answers.`,
];
const CLOSERS = [
  (kw: string) => `Getting this part right makes every later decision about ${kw} easier.`,
  () => 'It is worth testing this for yourself rather than taking anyone’s word for it.',
  () => 'Small adjustments here tend to have an outsized effect on the result.',
  () => 'Write down what works for you, so you can repeat it next time.',
];
const LEADS = [
  (heading: string, kw: string) => `When it comes to ${kw}, ${heading} is where many of the real decisions are made.`,
  (heading: string) => `Next comes ${heading}, which is easy to overlook.`,
  (heading: string) => `${capitalize(heading)} deserves a closer look.`,
];
const LINK_LINES = [
  (link: string) => `For more detail, see ${link}.`,
  (link: string) => `You can read more in ${link}.`,
  (link: string, brand: string) => `${brand} covers this in more depth in ${link}.`,
];

type Ctx = { keyword: string; brand: BrandInput; seed: string };

/** A complete article composed from the outline, the brand and the crawled pages, without a model. */
export function writeOffline({ topic, brand, research, pages }: WriteArticleInput): Draft {
  const rules = styleRules(brand);
  const plainKeyword = keywordOf(topic);
  const keyword = escapeMdxText(plainKeyword); // the body's spelling; tags and the description keep the plain one
  const ctx: Ctx = { keyword, brand, seed: topic.title };
  const brandName = escapeMdxText(brand.name);
  const byUrl = new Map(pages.map((page) => [page.url, page]));
  const targets: Source[] = research.sources.filter((source) => byUrl.has(source.url));
  if (targets.length === 0) rankPages(pages, topicTokensOf(topic)).slice(0, 3).forEach((page) => targets.push({ url: page.url, title: page.title }));
  const links: InternalLink[] = [];
  const link = (target: Source): string => {
    const anchor = anchorFor(target, brand.name);
    if (!links.some((l) => l.url === target.url)) links.push({ url: target.url, anchor });
    return mdxLink(anchor, target.url);
  };

  const headings = research.outline.map((section) => midSentence(section.heading, [brand.name]));
  const usedInBody = new Set(research.outline.flatMap((section) => section.points));
  const context = research.keyPoints.find((point) => !usedInBody.has(point));
  const intro = [
    `${HOOKS[hashString(topic.title) % HOOKS.length](keyword)} ${context ? safe(context) : 'Whether you are just starting out or refining what already works, the ideas below will help.'}`,
    `This article looks at ${keyword} from the ground up, drawing on what ${brandName} has learned along the way. ` +
      `It covers ${listOf(headings.slice(0, 4).map(escapeMdxText))}, and ends with steps you can take today.`,
  ];

  let linkIndex = 0;
  const sections = research.outline.map((section, index) => {
    const lines = [`## ${escapeMdxText(section.heading)}`, renderSection(section, index, ctx)];
    if (!isListSection(section) && linkIndex < targets.length) {
      lines.push(LINK_LINES[(hashString(topic.title) + index) % LINK_LINES.length](link(targets[linkIndex++]), brandName));
    }
    return lines.join('\n\n');
  });

  const home = pages.find((page) => pathOf(page.url) === '/') ?? pages[0];
  const allPoints = research.outline.flatMap((s) => s.points).join(' ');
  const extraFact = brand.companyFacts.map((fact) => factSentence(fact, brand.name)).find((sentence) => !allPoints.includes(sentence));
  const conclusion = [
    '## Conclusion',
    `${capitalize(keyword)} rewards steady attention more than bursts of effort. Start with ${escapeMdxText(headings[1] ?? 'the basics')}, ` +
      'keep the common mistakes in view and work through the checklist one item at a time.' + (extraFact ? ` ${safe(extraFact)}` : ''),
    home ? `If you want to go further, ${link({ url: home.url, title: home.title || brand.name })} is a good place to start.` : `If you want to go further, ${brandName} is happy to help.`,
  ].join('\n\n');

  const reading = links.length >= 2 ? `## Further Reading\n\n${links.map((l) => `- ${mdxLink(l.anchor, l.url)}`).join('\n')}` : '';
  let body = `${[intro.join('\n\n'), ...sections, conclusion, reading].filter(Boolean).join('\n\n')}\n`;
  if (rules.formal) body = formalize(body).text;
  else if (brand.voiceTraits.some((trait) => /casual|friendly|conversational|playful/i.test(trait))) body = casualize(body).text;
  body = enforceStyle(body, rules);

  const middle = research.outline.slice(1, 3).map((s) => midSentence(s.heading, [brand.name]));
  const description = truncateAtWord(enforceStyle(
    `${brand.name}'s guide to ${plainKeyword}: ${listOf([...middle, 'common mistakes', 'a practical checklist'])}.`, rules), 160);
  const sourcePages = targets.map((t) => byUrl.get(t.url)).filter((page) => page !== undefined);
  const tags = [...new Set([plainKeyword, ...keyPhrases(sourcePages, brand).map((entry) => entry.phrase)])].slice(0, 5);
  return {
    title: enforceStyle(topic.title.trim(), rules),
    description,
    body,
    tags,
    internalLinks: links.filter((l) => body.includes(`](${mdxLinkDestination(l.url)})`)),
  };
}

const isListSection = (section: OutlineSection): boolean => /mistake|checklist|step/i.test(section.heading);

function renderSection(section: OutlineSection, index: number, { keyword, brand, seed }: Ctx): string {
  const points = section.points.map(safe).map((point, i) => (i > 0 ? varyBrand(point, brand.name, i) : point));
  if (/checklist|step/i.test(section.heading)) return `Use this list to put ${keyword} into practice:\n\n${points.map((p, i) => `${i + 1}. ${p}`).join('\n')}`;
  if (isListSection(section) || points.length >= 5) return `Watch out for these:\n\n${points.map((p) => `- ${p}`).join('\n')}`;
  // Questions ("Why …", "How …") read badly inside a lead sentence; noun headings read well.
  const heading = escapeMdxText(midSentence(section.heading, [brand.name]));
  const lead = /^(why|how|what|when|where|who)\b/i.test(section.heading)
    ? ''
    : LEADS[(hashString(seed) + index) % LEADS.length](heading, keyword);
  const closer = CLOSERS[(hashString(seed) + index) % CLOSERS.length](keyword);
  return [lead, ...points, closer].filter(Boolean).join(' ');
}

/** "Fernleaf Tea offers … Fernleaf Tea works with …" reads as a list of facts; later ones say "The team"/"It". */
const varyBrand = (sentence: string, brand: string, index: number): string =>
  sentence.startsWith(`${brand} `) ? `${index % 2 ? 'The team' : 'It'} ${sentence.slice(brand.length + 1)}` : sentence;

const safe = (text: string): string => escapeMdxText(text.trim().replace(/([^.!?])$/, '$1.'));

const listOf = (items: string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** The page's own title without the " | Brand" part most sites add. */
function anchorFor(target: Source, brand: string): string {
  const parts = target.title.split(/\s+[|–—-]\s+/).filter((part) => !part.trim().toLowerCase().startsWith(brand.toLowerCase()) || part.length > brand.length + 12);
  return truncateAtWord((parts[0] ?? target.title).trim() || target.url, 60);
}

function pathOf(url: string): string {
  try { return new URL(url).pathname; } catch { return url; }
}
