import { countWords } from '../../../mdx/mdx.ts';
import { mdxLink, mdxText } from '../../../mdx/mdxSyntax.ts';
import { rankPages } from '../relevance.ts';
import { instructionTokens } from '../revisePrompt.ts';
import { capitalize, contentTokens, jaccard, sentences } from '../text.ts';
import { subjectTokens } from '../topicDedupe.ts';
import type { PageInput, ReviseArticleInput, RevisionResult } from '../writer.ts';
import { relevantSentences } from './analysis.ts';
import { blocks, isProseBlock, closingIndex, joinSections, splitSections } from './sections.ts';
import { casualize, cutTerm, enforceStyle, formalize, styleRules, termPattern } from '../style.ts';

type Outcome = { body: string; summary: string } | { notDone: string };
type Edit = {
  pattern: RegExp;
  run: (match: RegExpExecArray, body: string, input: ReviseArticleInput) => Outcome | undefined;
};

const clean = (text: string): string =>
  text
    .trim()
    .replace(/^["“'‘]|["”'’.!?]+$/g, '')
    .replace(/^["“'‘]/, '')
    .trim();

const WITHOUT_A_MODEL =
  "without a language model Inkstream only shortens, removes or replaces a word or a section, makes the tone more or less formal, and mentions or adds what the site's pages say (set OPENAI_API_KEY for other edits)";

/** Recognised instructions, most specific first ("don't mention X" before "mention X"). */
const EDITS: Edit[] = [
  {
    pattern:
      /\b(?:don't|do not|never|stop)\s+(?:use|say|mention)\s+(?:the\s+(?:word|term|phrase)\s+)?(.+)|\bremove\s+(?:the\s+)?(?:word|term|phrase|mentions?\s+of)\s+(.+)/i,
    run: removeTerm,
  },
  {
    // "Remove the section "Company facts"", "remove the section about pricing", and the plainer
    // "Remove the Company facts section" (the name before the word "section").
    pattern:
      /\b(?:remove|delete|drop|cut)\b(?:\s+the)?\s+(?:(?!section\b)(.+?)\s+section\b\W*$|.*?\bsection\b\s*(?:about|on|called|titled|named)?\s*(.+))/i,
    run: removeSection,
  },
  {
    pattern:
      /\b(?:add|include|write|insert)\b(?:\s+(?:a|an|one|another|new|short|brief))*\s+(?:section|paragraph|part)\b\s*(?:about|on|covering|for|called|titled|named|explaining)?\s*(.+)/i,
    run: addSection,
  },
  { pattern: /\breplace\s+(.+?)\s+with\s+(.+)/i, run: replaceTerm },
  {
    pattern:
      /\b(?:shorten|shorter|more concise|condense|trim|cut (?:it )?down|tighten|too long)\b/i,
    run: shorten,
  },
  {
    pattern: /\b(?:expand|longer|more detail|elaborate|flesh (?:it )?out)\b/i,
    run: () => ({
      notDone:
        'Could not expand the article: new prose needs a language model (set OPENAI_API_KEY), and the offline writer does not pad an article with filler.',
    }),
  },
  {
    pattern:
      /\b(?:less formal|more casual|friendlier|more friendly|more conversational|more relaxed)\b/i,
    run: (_m, body) => tone(body, casualize, 'relaxed the tone', 'contractions'),
  },
  {
    pattern: /\b(?:more formal|formal tone|more professional|less casual)\b/i,
    run: (_m, body) => tone(body, formalize, 'made the tone more formal', 'informal phrasings'),
  },
  { pattern: /\b(?:mention|reference|talk about)\s+(.+)/i, run: mention },
];

/** The verbs an edit starts with: a comma or an "and" before one of them starts another edit. */
const VERBS =
  "add|make|remove|shorten|mention|replace|include|insert|expand|delete|drop|cut|trim|condense|don't|do not|never|stop|reference|talk about|write";

/**
 * Splits "shorten it and add a section about pricing", "remove X, replace Y with Z, and shorten it"
 * and sentences into clauses, but not "pricing and billing" or "tins, pots and kettles".
 */
const clauses = (instruction: string): string[] =>
  instruction
    .split(
      new RegExp(
        `\\n+|;|(?<=[.!?])\\s+|,?\\s+(?:and\\s+)?then\\s+|(?:,\\s*|,?\\s+and\\s+)(?=(?:also\\s+|please\\s+)?(?:${VERBS})\\b)`,
        'i',
      ),
    )
    .map((clause) => clause.trim())
    .filter(Boolean);

const quoted = (clause: string): string =>
  `“${clause.length > 120 ? `${clause.slice(0, 119)}…` : clause}”`;

/**
 * Applies each recognised clause in turn. What it cannot do is said in the summary and nowhere
 * else: the body never carries a note to the editor, and nothing is invented to satisfy a request.
 */
export function reviseOffline(input: ReviseArticleInput): RevisionResult {
  let current = input.body;
  const done: string[] = [];
  const notDone: string[] = [];
  for (const clause of clauses(input.instruction)) {
    const edit = EDITS.map((candidate) => ({
      candidate,
      match: candidate.pattern.exec(clause),
    })).find((entry) => entry.match);
    const outcome = edit?.match ? edit.candidate.run(edit.match, current, input) : undefined;
    if (!outcome) notDone.push(`Could not apply ${quoted(clause)}: ${WITHOUT_A_MODEL}.`);
    else if ('notDone' in outcome) notDone.push(outcome.notDone);
    else {
      current = outcome.body;
      done.push(outcome.summary);
    }
  }
  if (done.length) current = enforceStyle(current, styleRules(input.brand));
  else current = input.body;
  const summary = [...(done.length ? done : ['Nothing was changed.']), ...notDone].join(' ');
  return { body: current.endsWith('\n') ? current : `${current}\n`, summary };
}

/** Sentences of the site's pages about `subject` (most of its words), each with its page. */
function excerptsAbout(
  subject: string,
  pages: readonly PageInput[],
  limit: number,
): Array<{ sentence: string; page: PageInput }> {
  const tokens = instructionTokens(subject);
  if (tokens.size === 0) return [];
  const hits = (sentence: string): number =>
    new Set(contentTokens(sentence).filter((token) => tokens.has(token))).size;
  return rankPages(pages, tokens)
    .flatMap((page) =>
      relevantSentences([page], tokens, limit).map((sentence) => ({
        sentence,
        page,
        hits: hits(sentence),
      })),
    )
    .filter((excerpt) => excerpt.hits >= Math.ceil(tokens.size / 2))
    .sort((a, b) => b.hits - a.hits) // stable: the most relevant page first among equals
    .slice(0, limit);
}

const cited = ({ sentence, page }: { sentence: string; page: PageInput }): string =>
  `${mdxText(`“${sentence}”`)} (${mdxLink(page.title || page.url, page.url)})`;

function shorten(_match: RegExpExecArray, body: string): Outcome {
  const cut = (content: string): string =>
    blocks(content)
      .map((block) => {
        if (isProseBlock(block)) {
          const all = sentences(block);
          return all.slice(0, Math.max(1, Math.ceil(all.length / 2))).join(' ');
        }
        return /^([-*] |\d+\. )/.test(block) ? block.split('\n').slice(0, 3).join('\n') : block;
      })
      .join('\n\n');
  const sectioned = splitSections(body);
  const next = joinSections({
    intro: cut(sectioned.intro),
    sections: sectioned.sections.map((s) => ({ ...s, content: cut(s.content) })),
  });
  return {
    body: next,
    summary: `Shortened the article from ${countWords(body)} to ${countWords(next)} words.`,
  };
}

function tone(
  body: string,
  change: (text: string) => { text: string; changes: number },
  what: string,
  unit: string,
): Outcome {
  const { text, changes } = change(body);
  return { body: text, summary: `${capitalize(what)} (${changes} ${unit} changed).` };
}

function addSection(match: RegExpExecArray, body: string, { pages }: ReviseArticleInput): Outcome {
  const subject = clean(match[1]).replace(/^the\s+/i, '');
  const excerpts = excerptsAbout(subject, pages, 3);
  if (!excerpts.length)
    return {
      notDone: `Could not add a section on ${quoted(subject)}: no crawled page of the site says anything about it, and the offline writer does not invent facts.`,
    };
  const sectioned = splitSections(body);
  const heading = mdxText(capitalize(subject));
  sectioned.sections.splice(closingIndex(sectioned.sections), 0, {
    heading,
    content: excerpts.map(cited).join('\n\n'),
  });
  return {
    body: joinSections(sectioned),
    summary: `Added a section "${capitalize(subject)}" quoting what the site's pages say about it (${excerpts.length} excerpts with their sources); put it in your own words before publishing.`,
  };
}

/**
 * Removes the section(s) named, with or without quotes, before or after the word "section":
 * "the Keyword section and the Pages to link to section" names two. A name no heading shares a
 * word with is reported, not guessed.
 */
function removeSection(match: RegExpExecArray, body: string): Outcome | undefined {
  const named = (match[1] ?? match[2] ?? '')
    .split(/\s+sections?\b\s*(?:,\s*(?:and\s+)?|\s+and\s+)(?:the\s+)?/i)
    .map((name) => clean(name.replace(/\s+sections?\b\W*$/i, '')))
    .filter(Boolean);
  const sectioned = splitSections(body);
  const removed: string[] = [];
  const missing: string[] = [];
  for (const name of named) {
    const tokens = subjectTokens(name);
    const [best] = sectioned.sections
      .map((section, index) => ({ index, score: jaccard(subjectTokens(section.heading), tokens) }))
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score || a.index - b.index);
    if (!best) {
      missing.push(name);
      continue;
    }
    removed.push(sectioned.sections.splice(best.index, 1)[0].heading);
  }
  if (!removed.length)
    return named.length
      ? {
          notDone: `Could not remove ${named.map((name) => quoted(name)).join(' or ')}: the article has no section with that name.`,
        }
      : undefined;
  const gone = removed.map((heading) => `"${heading}"`).join(' and ');
  const notFound = missing.length
    ? ` Found no section named ${missing.map((name) => quoted(name)).join(' or ')}.`
    : '';
  return {
    body: joinSections(sectioned),
    summary: `Removed the section${removed.length > 1 ? 's' : ''} ${gone}.${notFound}`,
  };
}

function replaceTerm(match: RegExpExecArray, body: string): Outcome {
  const from = clean(match[1]);
  const to = clean(match[2]);
  let count = 0;
  const next = body.replace(termPattern(from), () => {
    count++;
    return mdxText(to);
  });
  return {
    body: next,
    summary: count
      ? `Replaced "${from}" with "${to}" (${count}×).`
      : `Found no "${from}" to replace.`,
  };
}

function removeTerm(match: RegExpExecArray, body: string, { brand }: ReviseArticleInput): Outcome {
  const term = clean(match[1] ?? match[2]).toLowerCase();
  const count = (body.match(termPattern(term)) ?? []).length;
  const next = enforceStyle(cutTerm(body, term), styleRules(brand));
  return {
    body: next,
    summary: count
      ? `Removed "${term}" (${count} occurrences).`
      : `"${term}" did not appear; nothing to remove.`,
  };
}

function mention(match: RegExpExecArray, body: string, { pages }: ReviseArticleInput): Outcome {
  const subject = clean(match[1]);
  if (body.toLowerCase().includes(subject.toLowerCase()))
    return { body, summary: `"${subject}" was already mentioned; left as is.` };
  const [excerpt] = excerptsAbout(subject, pages, 1);
  if (!excerpt)
    return {
      notDone: `Could not mention ${quoted(subject)}: no crawled page of the site says anything about it, and the offline writer does not invent facts.`,
    };
  const sectioned = splitSections(body);
  sectioned.intro = `${sectioned.intro}\n\n${cited(excerpt)}`.trim();
  return {
    body: joinSections(sectioned),
    summary: `Mentioned ${subject} in the introduction, quoting ${excerpt.page.url}.`,
  };
}
