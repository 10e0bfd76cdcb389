import type { Claim, CheckFinding, QualityCheck } from '../../../../domain/articles/quality.ts';
import { contentTokens, jaccard } from '../../../../integrations/llm/text.ts';
import type { CheckInput } from './checkInput.ts';
import { normalise, type Span } from './bodyText.ts';
import { claimMarkers, passageCarries, type ClaimMarker } from './claimMarkers.ts';

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
  const pages = new Map(input.pages.map((page) => [page.url, normalise(page.text)]));
  const facts = input.companyFacts.map((fact) => ({
    url: fact.sourceUrl ?? 'company facts',
    text: normalise(fact.value),
    value: fact.value,
  }));
  const details: CheckFinding[] = [];
  const unsupported: CheckFinding[] = [];
  for (const sentence of sentences) {
    const markers = claimMarkers(sentence.text);
    if (markers.length === 0) continue;
    const verdict = judge(sentence.text, markers, input.claims, pages, facts);
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

function judge(
  sentence: string,
  markers: ClaimMarker[],
  claims: readonly Claim[],
  pages: ReadonlyMap<string, string>,
  facts: ReadonlyArray<{ url: string; text: string; value: string }>,
): Verdict {
  const wanted = markers.map((marker) => marker.token).join(', ');
  const claim = claimFor(sentence, claims);
  if (claim) {
    const quote = normalise(claim.quote);
    const page = pages.get(claim.url);
    const inSource =
      quote.length >= MIN_QUOTE_CHARS &&
      ((page?.includes(quote) ?? false) || facts.some((fact) => fact.text.includes(quote)));
    if (inSource && passageCarries(quote, markers))
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
  const own = normalise(sentence);
  for (const [url, text] of pages)
    if (own.length >= MIN_QUOTE_CHARS && text.includes(own))
      return {
        supported: true,
        note: 'The site says this word for word.',
        source: { url, passage: sentence },
      };
  const fact = facts.find((candidate) => passageCarries(candidate.text, markers));
  if (fact)
    return {
      supported: true,
      note: 'Supported by a company fact.',
      source: { url: fact.url, passage: fact.value },
    };
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
