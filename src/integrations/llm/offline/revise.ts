import { countWords } from '../../../mdx/mdx.ts';
import { subjectTokens } from '../topicDedupe.ts';
import { capitalize, escapeMdxText, jaccard, sentences } from '../text.ts';
import type { BrandInput, ReviseArticleInput, RevisionResult } from '../writer.ts';
import { blocks, closingIndex, isProseBlock, joinSections, splitSections } from './sections.ts';
import { casualize, cutTerm, enforceStyle, formalize, styleRules, termPattern } from '../style.ts';

type Outcome = { body: string; summary: string };
type Edit = { pattern: RegExp; run: (match: RegExpExecArray, body: string, brand: BrandInput) => Outcome | undefined };

const clean = (text: string): string => text.trim().replace(/^["“'‘]|["”'’.!?]+$/g, '').replace(/^["“'‘]/, '').trim();

/** Recognised instructions, most specific first ("don't mention X" before "mention X"). */
const EDITS: Edit[] = [
  { pattern: /\b(?:don't|do not|never|stop)\s+(?:use|say|mention)\s+(?:the\s+(?:word|term|phrase)\s+)?(.+)|\bremove\s+(?:the\s+)?(?:word|term|phrase|mentions?\s+of)\s+(.+)/i, run: removeTerm },
  { pattern: /\b(?:remove|delete|drop|cut)\b.*?\bsection\b\s*(?:about|on|called|titled|named)?\s*(.+)/i, run: removeSection },
  { pattern: /\b(?:add|include|write|insert)\b(?:\s+(?:a|an|one|another|new|short|brief))*\s+(?:section|paragraph|part)\b\s*(?:about|on|covering|for|called|titled|named|explaining)?\s*(.+)/i, run: addSection },
  { pattern: /\breplace\s+(.+?)\s+with\s+(.+)/i, run: replaceTerm },
  { pattern: /\b(?:shorten|shorter|more concise|condense|trim|cut (?:it )?down|tighten|too long)\b/i, run: shorten },
  { pattern: /\b(?:expand|longer|more detail|elaborate|flesh (?:it )?out)\b/i, run: expand },
  { pattern: /\b(?:less formal|more casual|friendlier|more friendly|more conversational|more relaxed)\b/i, run: (_m, body) => tone(body, casualize, 'relaxed the tone', 'contractions') },
  { pattern: /\b(?:more formal|formal tone|more professional|less casual)\b/i, run: (_m, body) => tone(body, formalize, 'made the tone more formal', 'informal phrasings') },
  { pattern: /\b(?:mention|reference|talk about)\s+(.+)/i, run: mention },
];

/** Splits "shorten it and add a section about pricing" into clauses, but not "pricing and billing". */
const clauses = (instruction: string): string[] =>
  instruction.split(/\n+|;|(?<=[.!?])\s+|,?\s+(?:and\s+)?then\s+|,?\s+and\s+(?=(?:also\s+)?(?:add|make|remove|shorten|mention|replace|include|expand|delete|drop|cut|don't|do not|never)\b)/i)
    .map((clause) => clause.trim()).filter(Boolean);

/** Applies each recognised clause in turn; anything unrecognised becomes an editor's note. */
export function reviseOffline({ body, instruction, brand }: ReviseArticleInput): RevisionResult {
  let current = body;
  const summaries: string[] = [];
  const unmatched: string[] = [];
  for (const clause of clauses(instruction)) {
    const edit = EDITS.map((candidate) => ({ candidate, match: candidate.pattern.exec(clause) })).find((entry) => entry.match);
    const outcome = edit?.match ? edit.candidate.run(edit.match, current, brand) : undefined;
    if (!outcome) { unmatched.push(clause); continue; }
    current = outcome.body;
    summaries.push(outcome.summary);
  }
  if (unmatched.length) {
    const request = escapeMdxText(unmatched.join(' '));
    const sectioned = splitSections(current);
    sectioned.sections.push({
      heading: "Editor's Note",
      content: `An editor asked for this change: “${request.replace(/[.!?]+$/, '')}”. It could not be applied automatically, so it is recorded here for a person to act on before publishing.`,
    });
    current = joinSections(sectioned);
    summaries.push(`Added an editor's note for the request it could not apply automatically: “${unmatched.join(' ')}”`);
  }
  current = enforceStyle(current, styleRules(brand));
  return { body: current.endsWith('\n') ? current : `${current}\n`, summary: summaries.join(' ') };
}

function shorten(_match: RegExpExecArray, body: string): Outcome {
  const cut = (content: string): string => blocks(content).map((block) => {
    if (isProseBlock(block)) { const all = sentences(block); return all.slice(0, Math.max(1, Math.ceil(all.length / 2))).join(' '); }
    return /^([-*] |\d+\. )/.test(block) ? block.split('\n').slice(0, 3).join('\n') : block;
  }).join('\n\n');
  const sectioned = splitSections(body);
  const next = joinSections({ intro: cut(sectioned.intro), sections: sectioned.sections.map((s) => ({ ...s, content: cut(s.content) })) });
  return { body: next, summary: `Shortened the article from ${countWords(body)} to ${countWords(next)} words.` };
}

function expand(_match: RegExpExecArray, body: string): Outcome {
  const sectioned = splitSections(body);
  let expanded = 0;
  const sections = sectioned.sections.map((section, i) => {
    if (i >= closingIndex(sectioned.sections) || !blocks(section.content).some(isProseBlock)) return section;
    expanded++;
    const topic = section.heading.toLowerCase();
    return { ...section, content: `${section.content}\n\nIn practice, ${topic} is worth revisiting as circumstances change. Small, consistent improvements here add up over time, and writing down what you learn makes the next decision easier.` };
  });
  const next = joinSections({ ...sectioned, sections });
  return { body: next, summary: `Expanded ${expanded} sections with more detail (${countWords(body)} → ${countWords(next)} words).` };
}

function tone(body: string, change: (text: string) => { text: string; changes: number }, what: string, unit: string): Outcome {
  const { text, changes } = change(body);
  return { body: text, summary: `${capitalize(what)} (${changes} ${unit} changed).` };
}

function addSection(match: RegExpExecArray, body: string, brand: BrandInput): Outcome {
  const subject = clean(match[1]).replace(/^the\s+/i, '');
  const tokens = subjectTokens(subject);
  // Sentences of the article that are about the new section's subject (most of its words, not just one).
  const needed = Math.min(2, tokens.size);
  const prose = body.split('\n').filter((line) => line.trim() && !/^(#|[-*] |\d+\. )/.test(line)).join(' ');
  const related = sentences(prose).filter((s) => [...subjectTokens(s)].filter((t) => tokens.has(t)).length >= needed).slice(0, 2);
  const content = [
    `${escapeMdxText(capitalize(subject))} deserves a closer look.`,
    ...related,
    `${escapeMdxText(brand.name)} treats ${escapeMdxText(subject)} as part of the whole picture rather than an afterthought, and it is worth doing the same: decide what good looks like, make one change at a time and check the results.`,
  ].join(' ');
  const sectioned = splitSections(body);
  const heading = escapeMdxText(capitalize(subject));
  sectioned.sections.splice(closingIndex(sectioned.sections), 0, { heading, content });
  return { body: joinSections(sectioned), summary: `Added a section "${capitalize(subject)}".` };
}

function removeSection(match: RegExpExecArray, body: string): Outcome | undefined {
  const tokens = subjectTokens(clean(match[1]));
  const sectioned = splitSections(body);
  const scored = sectioned.sections.map((section, index) => ({ index, score: jaccard(subjectTokens(section.heading), tokens) }))
    .filter((entry) => entry.score > 0).sort((a, b) => b.score - a.score || a.index - b.index);
  if (!scored.length) return undefined;
  const [removed] = sectioned.sections.splice(scored[0].index, 1);
  return { body: joinSections(sectioned), summary: `Removed the section "${removed.heading}".` };
}

function replaceTerm(match: RegExpExecArray, body: string): Outcome {
  const from = clean(match[1]);
  const to = clean(match[2]);
  let count = 0;
  const next = body.replace(termPattern(from), () => { count++; return escapeMdxText(to); });
  return { body: next, summary: count ? `Replaced "${from}" with "${to}" (${count}×).` : `Found no "${from}" to replace.` };
}

function removeTerm(match: RegExpExecArray, body: string, brand: BrandInput): Outcome {
  const term = clean(match[1] ?? match[2]).toLowerCase();
  const count = (body.match(termPattern(term)) ?? []).length;
  const next = enforceStyle(cutTerm(body, term), styleRules(brand));
  return { body: next, summary: count ? `Removed "${term}" (${count} occurrences).` : `"${term}" did not appear; nothing to remove.` };
}

function mention(match: RegExpExecArray, body: string): Outcome {
  const subject = clean(match[1]);
  if (body.toLowerCase().includes(subject.toLowerCase())) return { body, summary: `"${subject}" was already mentioned; left as is.` };
  const sectioned = splitSections(body);
  sectioned.intro = `${sectioned.intro}\n\nIt is also worth mentioning ${escapeMdxText(subject)}.`.trim();
  return { body: joinSections(sectioned), summary: `Mentioned ${subject} in the introduction.` };
}
