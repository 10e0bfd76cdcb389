import type { BlockContent, ListItem, PhrasingContent, Root, RootContent } from 'mdast';
import { mdxLinkDestination, serializeMdx } from '../../../mdx/mdxSyntax.ts';
import { rankPages, topicTokensOf } from '../relevance.ts';
import { enforceStyle, styleRules } from '../style.ts';
import { truncateAtWord } from '../text.ts';
import type { BrandInput, Draft, InternalLink, PageInput, WriteArticleInput } from '../writer.ts';
import { keyPhrases, relevantSentences } from './analysis.ts';
import { keywordOf } from './research.ts';

const EXCERPT_PAGES = 5;
const EXCERPTS_PER_PAGE = 3;
const LINK_CANDIDATES = 6;

/**
 * Without a model, Inkstream writes a brief, not an article: the keyword, an outline from the
 * research (the site's own headings in the middle), what the site's pages say about the topic
 * with the URL of each excerpt, the company facts and the pages worth linking to. It says what it
 * is in its first lines, its frontmatter (`kind: brief`) and the pull request. Built as a syntax
 * tree, so crawled text stays literal text (docs/mdx-safety.md).
 */
export function writeOffline({ topic, brand, research, pages }: WriteArticleInput): Draft {
  const keyword = keywordOf(topic);
  const tokens = topicTokensOf(topic);
  const relevant = rankPages(pages, tokens);
  const candidates = linkCandidates(
    relevant,
    research.sources.map((source) => source.url),
    pages,
    brand.name,
  );
  const tree: Root = {
    type: 'root',
    children: [
      paragraph(
        text(
          `This is a brief for an article, not the article: no language model is configured (OPENAI_API_KEY is not set), so Inkstream gathered what a writer needs from the site instead of writing prose. Write the article from it before publishing.`,
        ),
      ),
      heading('Keyword'),
      paragraph(text(keyword)),
      heading('Suggested outline'),
      list(
        research.outline.map((section) => [paragraph(text(section.heading))]),
        true,
      ),
      heading('What the site says'),
      ...excerptsOf(relevant, tokens, brand.name),
      heading('Company facts'),
      ...factsOf(brand),
      heading('Pages to link to'),
      candidates.length
        ? list(candidates.map((link) => [paragraph(linkTo(link.anchor, link.url))]))
        : paragraph(text('No crawled page is about this topic.')),
    ],
  };
  const rules = styleRules(brand);
  const phrases = keyPhrases(relevant.slice(0, EXCERPT_PAGES), brand).map((entry) => entry.phrase);
  return {
    title: enforceStyle(topic.title.trim(), rules),
    description: truncateAtWord(
      `Brief for an article on ${keyword}: outline, excerpts from the site with their sources, company facts and pages to link to.`,
      160,
    ),
    body: serializeMdx(tree),
    tags: [...new Set([keyword, ...phrases])].slice(0, 5),
    internalLinks: candidates,
    kind: 'brief',
  };
}

function excerptsOf(
  relevant: readonly PageInput[],
  tokens: ReadonlySet<string>,
  brand: string,
): RootContent[] {
  const items = relevant
    .slice(0, EXCERPT_PAGES)
    .flatMap((page) =>
      relevantSentences([page], tokens, EXCERPTS_PER_PAGE).map((sentence) => [
        paragraph(text(`“${sentence}” (`), linkTo(anchorFor(page, brand), page.url), text(')')),
      ]),
    );
  return items.length
    ? [list(items)]
    : [paragraph(text('No crawled page says anything quotable about this topic.'))];
}

function factsOf(brand: BrandInput): RootContent[] {
  if (!brand.companyFacts.length)
    return [paragraph(text('The brand profile holds no company facts yet.'))];
  return [
    list(
      brand.companyFacts.map((fact) => [
        paragraph(
          text(`${fact.kind}: ${fact.value}`),
          ...(fact.sourceUrl
            ? [text(' ('), linkTo(fact.sourceUrl, fact.sourceUrl), text(')')]
            : []),
        ),
      ]),
    ),
  ];
}

/** The research's sources first, then the other pages about the topic, then the home page. */
function linkCandidates(
  relevant: readonly PageInput[],
  sourceUrls: readonly string[],
  pages: readonly PageInput[],
  brand: string,
): InternalLink[] {
  const byUrl = new Map(pages.map((page) => [page.url, page]));
  const home = pages.find((page) => pathOf(page.url) === '/');
  const ordered = [...sourceUrls.map((url) => byUrl.get(url)), ...relevant, home].filter(
    (page) => page !== undefined,
  );
  const seen = new Set<string>();
  return ordered
    .filter((page) => !seen.has(page.url) && seen.add(page.url))
    .slice(0, LINK_CANDIDATES)
    .map((page) => ({ url: page.url, anchor: anchorFor(page, brand) }));
}

const text = (value: string): PhrasingContent => ({ type: 'text', value });
const linkTo = (anchor: string, url: string): PhrasingContent => ({
  type: 'link',
  url: mdxLinkDestination(url),
  children: [text(anchor)],
});
const paragraph = (...children: PhrasingContent[]): BlockContent => ({
  type: 'paragraph',
  children,
});
const heading = (value: string): RootContent => ({
  type: 'heading',
  depth: 2,
  children: [text(value)],
});
const list = (items: BlockContent[][], ordered = false): BlockContent => ({
  type: 'list',
  ordered,
  spread: false,
  children: items.map((children): ListItem => ({ type: 'listItem', spread: false, children })),
});

/** The page's own title without the " | Brand" part most sites add. */
function anchorFor(page: PageInput, brand: string): string {
  const parts = page.title
    .split(/\s+[|–—-]\s+/)
    .filter(
      (part) =>
        !part.trim().toLowerCase().startsWith(brand.toLowerCase()) ||
        part.length > brand.length + 12,
    );
  return truncateAtWord((parts[0] ?? page.title).trim() || page.url, 60);
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
