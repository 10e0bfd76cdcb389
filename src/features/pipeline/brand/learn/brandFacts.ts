import type { CompanyFacts, SourcedFact } from './brandProfile.ts';
import { factSentences, type Sentence } from './brandText.ts';
import { companyName, offers } from './brandOffers.ts';
import type { CrawledPage } from '../../../../integrations/crawler/types.ts';

/** Either case for the first letter: "[Ff]ounded". Facts need case-sensitive place names, so no /i. */
const word = (...words: string[]) =>
  words.map((w) => `[${w[0].toUpperCase()}${w[0]}]${w.slice(1)}`).join('|');
const YEAR = '(1[89]\\d{2}|20\\d{2})';
const PLACE_WORD = "\\p{Lu}[\\p{L}'’.-]*";
const PLACE = `(${PLACE_WORD}(?:[ -](?:${PLACE_WORD}|upon|on|de|del|la|am))*(?:,\\s*${PLACE_WORD}(?:\\s${PLACE_WORD})*)?)`;
const FOUNDED = `(?:${word('founded', 'established', 'started', 'launched', 'incorporated', 'born', 'opened')})`;
const LOCATED = `(?:${word('based', 'headquartered', 'located')})`;
const NUMBER = '(\\d[\\d,]*\\+?)';
const notPlaces =
  /^(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Our|We|You|Your|The|This|That|It)\b/;

const re = (source: string) => new RegExp(source, 'u');
const yearPatterns = [
  re(`\\b${FOUNDED}\\s+(?:back\\s+)?(?:in\\s+)?${YEAR}\\b`),
  re(`\\b${FOUNDED}\\s+in\\s+${PLACE}\\s+in\\s+${YEAR}\\b`),
  re(`\\b(?:[Ee]st\\.?|EST\\.?)\\s*${YEAR}\\b`),
  re(`\\b[Ss]ince\\s+${YEAR}\\b`),
  re(`\\b[Ii]n\\s+${YEAR},?\\s+[^.!?]{0,60}?\\b(?:founded|started|opened)\\b`),
];
const placePatterns = [
  re(`\\b${FOUNDED}\\s+(?:back\\s+)?(?:in\\s+)?${YEAR}\\s+in\\s+${PLACE}`),
  re(`\\b${FOUNDED}\\s+in\\s+${PLACE}\\s+in\\s+${YEAR}\\b`),
  re(
    `\\b${LOCATED}\\s+in\\s+(?:the\\s+heart\\s+of\\s+|downtown\\s+|sunny\\s+|beautiful\\s+)?${PLACE}`,
  ),
  re(`\\b${FOUNDED}\\s+in\\s+${PLACE}`),
];
const teamPatterns = [
  re(`\\b[Tt]eam\\s+of\\s+(?:over\\s+|more\\s+than\\s+|about\\s+|around\\s+|nearly\\s+)?${NUMBER}`),
  re(`\\b${NUMBER}[- ](?:person|people|strong)\\s+team\\b`),
  re(
    `\\b(?:[Ww]e\\s+are|[Ww]e're|[Ww]e’re|[Ee]mploy(?:s|ing)?)\\s+(?:over\\s+|more\\s+than\\s+|about\\s+)?${NUMBER}\\s+(?:full-time\\s+)?(?:employees|people|staff|team members|engineers|experts)\\b`,
  ),
];
const missionPatterns = [
  re(`\\b[Oo]ur mission is to\\s+[^.!?]{3,200}`),
  re(`\\b[Ww]e help\\s+[^.!?]{3,200}`),
  re(`\\b[Ww]e make it (?:easy|simple|possible) for\\s+[^.!?]{3,200}`),
  re(`\\bhelps\\s+[^.!?]{3,200}`),
];

type Match = { match: RegExpExecArray; sentence: Sentence };

/** The first sentence (in page order) that the first pattern matches, trying patterns in order of trust. */
function firstMatch(
  sentences: readonly Sentence[],
  patterns: readonly RegExp[],
  accept: (m: RegExpExecArray) => boolean = () => true,
): Match | undefined {
  for (const pattern of patterns) {
    for (const sentence of sentences) {
      const match = pattern.exec(sentence.text);
      if (match && accept(match)) return { match, sentence };
    }
  }
  return undefined;
}

const fact = (value: string, found: Match): SourcedFact => ({
  value: value.trim(),
  sourceUrl: found.sentence.sourceUrl,
  evidence: found.sentence.text.slice(0, 600),
});

const yearIn = (m: RegExpExecArray) =>
  m.slice(1).find((group) => group && /^(?:1[89]|20)\d{2}$/.test(group));
const placeIn = (m: RegExpExecArray) =>
  m
    .slice(1)
    .find((group) => group && !/^\d/.test(group) && !notPlaces.test(group))
    ?.replace(/(?<!\.\p{Lu})\.$/u, ''); // "Berlin." loses the full stop, "Washington, D.C." keeps it
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Company facts from the pages' text, each with the page it came from. */
export function extractCompanyFacts(pages: readonly CrawledPage[]): CompanyFacts {
  const sentences = factSentences(pages);
  const founded = firstMatch(sentences, yearPatterns, (m) => yearIn(m) !== undefined);
  const location = firstMatch(sentences, placePatterns, (m) => placeIn(m) !== undefined);
  const team = firstMatch(sentences, teamPatterns);
  const mission = firstMatch(sentences, missionPatterns);
  const name = companyName(pages);
  return {
    ...(name ? { name } : {}),
    ...(founded ? { founded: fact(yearIn(founded.match) as string, founded) } : {}),
    ...(location ? { location: fact(placeIn(location.match) as string, location) } : {}),
    ...(team ? { team: fact(team.match[1].replace(/,/g, ''), team) } : {}),
    ...(mission ? { mission: fact(capitalise(mission.match[0]), mission) } : {}),
    offers: offers(pages),
    proofPoints: proofPoints(sentences, team?.sentence.text),
    testimonials: testimonials(pages),
  };
}

const proofNouns =
  /^(?:customers|clients|users|companies|businesses|brands|teams|members|subscribers|downloads|installs|orders|transactions|countries|cities|locations|stores|shops|partners|projects|reviews|students|patients|merchants|sellers|restaurants|agencies|developers|organi[sz]ations|websites|sites|years|hours saved|integrations|languages)$/;
const trustVerb =
  /\b(?:[Tt]rusted|[Uu]sed|[Ss]erv(?:e|es|ing)|[Cc]hosen|[Ll]oved|[Hh]elped|[Jj]oin|[Pp]ower(?:s|ing)?|[Rr]ely|[Rr]elied)\b/;
const countClaim =
  /(?:(?:[Oo]ver|[Mm]ore than|[Nn]early|[Aa]lmost)\s+)?\b\d[\d,.]*(?:\+|[kKmM]\+?|\s(?:million|thousand|billion))?\s+(?:(?:happy|satisfied|active|paying|loyal)\s+)?(\p{Ll}[\p{Ll}-]+s)\b(?:\s+in\s+\d+\s+countries)?/u;
const otherClaims = [
  /\b\d+(?:\.\d+)?\s?%\s+(?:[\p{Ll}-]+\s){0,2}[\p{Ll}-]+/u,
  /\b\d(?:\.\d)?\s*(?:\/|out of)\s*5(?:\s*stars?)?/,
  /\b\d+(?:\.\d+)?x\s+(?:faster|more|better|cheaper|quicker)\b/,
];

/**
 * A claim is stated only as the site wrote it, in a whole sentence: a capital (or digit or quote)
 * first, closing punctuation last, a few words between. A list item or heading ("Proof point: 10%
 * to", "Save 20% on") has lost what the number is about, so it is no fact a writer may repeat.
 */
const MAX_PROOF_POINT_CHARS = 200; // the brand learner quotes one in a do line, which holds 300
const isWholeSentence = (sentence: Sentence): boolean =>
  sentence.words >= 4 &&
  sentence.text.length <= MAX_PROOF_POINT_CHARS &&
  /^["“‘(]?[\p{Lu}\d]/u.test(sentence.text) &&
  /[.!?]["”’)]?$/.test(sentence.text);

function proofPoints(sentences: readonly Sentence[], teamSentence?: string): SourcedFact[] {
  const found: SourcedFact[] = [];
  const seen = new Set<string>();
  for (const sentence of sentences) {
    if (sentence.text === teamSentence || found.length >= 10 || !isWholeSentence(sentence))
      continue;
    const count = countClaim.exec(sentence.text);
    const countOk =
      count &&
      !/^(?:1[89]|20)\d{2}\s/.test(count[0].replace(/^\D+/, '')) &&
      (proofNouns.test(count[1]) || trustVerb.test(sentence.text));
    const claim = countOk
      ? count[0]
      : otherClaims.map((pattern) => pattern.exec(sentence.text)?.[0]).find(Boolean);
    const key = claim?.toLowerCase();
    if (!claim || !key || seen.has(key)) continue;
    seen.add(key);
    found.push({ value: sentence.text, sourceUrl: sentence.sourceUrl, evidence: sentence.text });
  }
  return found;
}

function testimonials(pages: readonly CrawledPage[]): SourcedFact[] {
  const seen = new Set<string>();
  return pages
    .flatMap((page) => page.quotes.map((quote) => ({ value: quote, sourceUrl: page.url })))
    .filter((quote) => !seen.has(quote.value) && Boolean(seen.add(quote.value)))
    .slice(0, 10);
}
