import type { SourcedFact } from './brandProfile.ts';
import type { CrawledPage } from '../../../../integrations/crawler/types.ts';

const offerPath =
  /\/(?:products?|platform?|solutions?|features?|offerings?|what-we-do|platform)(?:\/([^/]+))?\/?$/i;
const genericHeading =
  /^(?:products?|platform?|solutions?|features?|offerings?|overview|pricing|plans|all products|what we do|our platform|our products)$/i;
const MAX_OFFERS = 12;

/**
 * Products and platform: the main heading of each product/service page (or, on the index page,
 * its sub-headings), then navigation links that point at such pages. Each keeps the page that
 * describes it as its source.
 */
export function offers(pages: readonly CrawledPage[]): SourcedFact[] {
  const found: SourcedFact[] = [];
  const seen = new Set<string>();
  const add = (value: string, sourceUrl: string) => {
    const key = value.toLowerCase();
    if (
      value.length < 2 ||
      value.length > 80 ||
      genericHeading.test(value) ||
      seen.has(key) ||
      found.length >= MAX_OFFERS
    )
      return;
    seen.add(key);
    found.push({ value, sourceUrl });
  };
  for (const page of pages) {
    const match = offerPath.exec(new URL(page.url).pathname);
    if (!match) continue;
    const headings = match[1]
      ? page.headings.filter((h) => h.level === 1).slice(0, 1)
      : page.headings.filter((h) => h.level === 2 || h.level === 3);
    for (const heading of headings) add(heading.text, page.url);
  }
  for (const page of pages) {
    for (const link of page.navLinks)
      if (offerPath.exec(new URL(link.url).pathname)?.[1]) add(link.text, link.url);
  }
  return found;
}

const titleSeparators = /\s+[|–—·:-]\s+/;

/**
 * The company name: og:site_name when the pages declare it, else the title part that most
 * pages share ("Pricing | Acme" and "About | Acme" give "Acme").
 */
export function companyName(pages: readonly CrawledPage[]): SourcedFact | undefined {
  const declared = mostCommon(
    pages.flatMap((page) => (page.siteName ? [{ value: page.siteName, page }] : [])),
  );
  if (declared) return { value: declared.value, sourceUrl: declared.page.url };
  const parts = pages.flatMap((page) => {
    const segments = page.title
      .split(titleSeparators)
      .map((s) => s.trim())
      .filter(Boolean);
    return segments.length > 1 ? [...new Set(segments)].map((value) => ({ value, page })) : [];
  });
  const shared = mostCommon(parts);
  return shared && shared.count >= 2
    ? { value: shared.value, sourceUrl: shared.page.url }
    : undefined;
}

function mostCommon(items: Array<{ value: string; page: CrawledPage }>) {
  const counts = new Map<string, { value: string; page: CrawledPage; count: number }>();
  for (const item of items) {
    const entry = counts.get(item.value) ?? { ...item, count: 0 };
    entry.count += 1;
    counts.set(item.value, entry);
  }
  let best: { value: string; page: CrawledPage; count: number } | undefined;
  for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
  return best;
}
