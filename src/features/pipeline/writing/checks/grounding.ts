import type { Claim, CheckFinding, QualityCheck } from '../../../../domain/articles/quality.ts';
import { contentTokens, jaccard } from '../../../../integrations/llm/text.ts';
import type { CheckInput } from './checkInput.ts';
import { normalise, sentenceSpans, visibleText, type Span } from './bodyText.ts';
import {
  claimMarkers,
  comparable,
  passageCarries,
  withoutIdioms,
  siteNames,
  type ClaimMarker,
} from './claimMarkers.ts';

const splitSentences = (text: string): string[] => sentenceSpans(text, 0).map((span) => span.text);

/** A quote shorter than this proves nothing ("85%" is on every other page). */
const MIN_QUOTE_CHARS = 12;
const SAME_SENTENCE = 0.5;

type Verdict = {
  supported: boolean;
  note: string;
  source: { url: string; passage: string } | null;
};

/**
 * Every sentence carrying a number, percentage, year, price, superlative or health claim is
 * supported only by a passage of the crawled site or the company facts that contains its markers:
 * the passage the model quoted for it (on the page it named), the sentence itself word for word,
 * or a company fact.
 */
export function groundingCheck(input: CheckInput, sentences: readonly Span[]): QualityCheck {
  const site = siteIndex(input);
  const details: CheckFinding[] = [];
  const unsupported: CheckFinding[] = [];
  for (const sentence of sentences) {
    const markers = claimMarkers(sentence.text, site.names);
    if (markers.length === 0) continue;
    const verdict = judge(sentence.text, markers, input.claims, site);
    const finding = {
      text: sentence.text,
      start: sentence.start,
      end: sentence.end,
      note: verdict.note,
      source: verdict.source,
    };
    details.push(finding);
    if (!verdict.supported) unsupported.push(finding);
  }
  if (details.length === 0)
    return {
      name: 'grounding',
      status: 'pass',
      message: 'No sentence states a figure, superlative or health claim.',
      details,
    };
  if (unsupported.length === 0)
    return {
      name: 'grounding',
      status: 'pass',
      message: `All ${details.length} checkable claims are supported by the site or the company facts.`,
      details,
    };
  return {
    name: 'grounding',
    status: 'fail',
    message: `${unsupported.length} of ${details.length} checkable claims have no supporting passage on the site or in the company facts.`,
    details: unsupported,
  };
}

type SiteSentence = { url: string; text: string; comparable: string; tokens: Set<string> };
type SiteIndex = {
  /** Each page's whole text, in `comparable` form (figures spelt as on the site). */
  pages: ReadonlyMap<string, string>;
  /** Each page's whole text, figures spelt out as digits too. */
  spelt: ReadonlyMap<string, string>;
  sentences: readonly SiteSentence[];
  facts: ReadonlyArray<{ url: string; text: string; value: string }>;
  names: ReadonlySet<string>;
};

/** The site and the company facts, read once per check in the forms the matching compares. */
function siteIndex(input: CheckInput): SiteIndex {
  const sentences: SiteSentence[] = [];
  for (const page of input.pages)
    for (const line of page.text.split('\n'))
      for (const text of splitSentences(visibleText(line).replace(/^[#>\-*+\s]+/, '')))
        sentences.push({
          url: page.url,
          text,
          comparable: withoutIdioms(comparable(text, { numberWords: true })),
          tokens: new Set(contentTokens(comparable(text))),
        });
  return {
    pages: new Map(input.pages.map((page) => [page.url, comparable(page.text)])),
    spelt: new Map(
      input.pages.map((page) => [page.url, comparable(page.text, { numberWords: true })]),
    ),
    sentences,
    facts: input.companyFacts.map((fact) => ({
      url: fact.sourceUrl ?? 'company facts',
      text: comparable(`${fact.kind} ${fact.value}`, { numberWords: true }),
      value: fact.value,
    })),
    names: siteNames([
      ...input.pages.flatMap((page) => [page.text, page.title ?? '']),
      ...input.companyFacts.map((fact) => fact.value),
    ]),
  };
}

/** "Not", "never", "no", "n't", "without": a sentence and its negation share every word but one. */
const NEGATION = /\b(?:not|never|no|none|without|cannot)\b|n't\b/;

function judge(
  sentence: string,
  markers: ClaimMarker[],
  claims: readonly Claim[],
  site: SiteIndex,
): Verdict {
  const wanted = markers.map((marker) => marker.token).join(', ');
  const claim = claimFor(sentence, claims);
  if (claim) {
    const quote = comparable(claim.quote);
    const page = site.pages.get(claim.url);
    const inSource =
      quote.length >= MIN_QUOTE_CHARS &&
      ((page?.includes(quote) ?? false) || site.facts.some((fact) => fact.text.includes(quote)));
    if (inSource && passageCarries(comparable(claim.quote, { numberWords: true }), markers))
      return {
        supported: true,
        note: 'Supported by the quoted passage.',
        source: { url: claim.url, passage: claim.quote },
      };
    if (!inSource) {
      const where =
        page === undefined
          ? `${claim.url} is not a crawled page of the site`
          : `the quoted passage is not on ${claim.url}`;
      return {
        supported: false,
        note: `Unsupported: ${where} (checked for ${wanted}).`,
        source: { url: claim.url, passage: claim.quote },
      };
    }
  }
  const verbatim = quotedOnSite(sentence, markers, site);
  if (verbatim) return verbatim;
  const fact = site.facts.find((candidate) => passageCarries(candidate.text, markers));
  if (fact)
    return {
      supported: true,
      note: 'Supported by a company fact.',
      source: { url: fact.url, passage: fact.value },
    };
  const reworded = saidOnSite(sentence, markers, site);
  if (reworded) return reworded;
  return claim
    ? {
        supported: false,
        note: `Unsupported: the quoted passage does not contain ${wanted}.`,
        source: { url: claim.url, passage: claim.quote },
      }
    : {
        supported: false,
        note: `Unsupported: no source was given and no page or company fact contains ${wanted}.`,
        source: null,
      };
}

/** Quotation marks around a passage, and the "(page title)" citation a brief puts after it. */
const QUOTED = /["“”]([^"“”]{12,})["“”]/g;
const CITATION = /\s*\((?:\[[^\]]*\]\([^)]*\)|[^()]*)\)\s*$/;

/**
 * The sentence, or a passage it quotes, is on a crawled page word for word (case, dashes and
 * figures compared as a reader would) and carries the sentence's markers.
 */
function quotedOnSite(sentence: string, markers: ClaimMarker[], site: SiteIndex): Verdict | null {
  const whole = sentence.replace(CITATION, '').replace(/^["“”\s]+|["“”\s]+$/g, '');
  const candidates = [
    whole,
    ...[...visibleText(sentence).matchAll(QUOTED)].map((match) => match[1].trim()),
  ];
  for (const candidate of candidates) {
    const own = comparable(candidate);
    if (own.length < MIN_QUOTE_CHARS) continue;
    if (!passageCarries(comparable(candidate, { numberWords: true }), markers)) continue;
    for (const [url, text] of site.pages)
      if (text.includes(own))
        return {
          supported: true,
          note: 'The site says this word for word.',
          source: { url, passage: candidate },
        };
  }
  return null;
}

/** Most of the sentence's meaningful words: a sentence of the site that says the same thing in other words. */
const SAME_STATEMENT = 0.6;

/**
 * One sentence of the site carries every marker, shares 60 % of the sentence's meaningful words and
 * is not its negation: the article says what the site says, in its own words.
 */
function saidOnSite(sentence: string, markers: ClaimMarker[], site: SiteIndex): Verdict | null {
  const own = new Set(contentTokens(comparable(sentence)));
  // A quotation is the site's words or a misquote: only quotedOnSite can support it.
  if (own.size === 0 || /^["“]/.test(visibleText(sentence).replace(/^[\s(]+/, ''))) return null;
  const negated = NEGATION.test(normalise(sentence));
  let best: { candidate: SiteSentence; score: number } | null = null;
  for (const candidate of site.sentences) {
    if (NEGATION.test(candidate.comparable) !== negated) continue;
    let shared = 0;
    for (const token of own) if (candidate.tokens.has(token)) shared++;
    const score = shared / own.size;
    if (score < SAME_STATEMENT || (best && score <= best.score)) continue;
    if (passageCarries(candidate.comparable, markers)) best = { candidate, score };
  }
  return best
    ? {
        supported: true,
        note: 'The site says this in other words.',
        source: { url: best.candidate.url, passage: best.candidate.text },
      }
    : null;
}

/** The claim the model gave for this sentence: the same sentence, or one sharing most of its words. */
function claimFor(sentence: string, claims: readonly Claim[]): Claim | null {
  const own = normalise(sentence);
  const tokens = new Set(contentTokens(own));
  let best: { claim: Claim; score: number } | null = null;
  for (const claim of claims) {
    const text = normalise(claim.sentence);
    const score =
      text && (own.includes(text) || text.includes(own))
        ? 1
        : jaccard(tokens, new Set(contentTokens(text)));
    if (score >= SAME_SENTENCE && (!best || score > best.score)) best = { claim, score };
  }
  return best?.claim ?? null;
}
