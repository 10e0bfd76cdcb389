import type { CheckFinding, QualityCheck } from '../../../../domain/articles/quality.ts';
import { contentTokens } from '../../../../integrations/llm/text.ts';
import type { CheckInput } from './checkInput.ts';
import { visibleText, type BodyText } from './bodyText.ts';

/** Every meaningful word of the keyword (stemmed, so "brew" meets "brewing") occurs in the text. */
export const hasKeyword = (text: string, keyword: string): boolean => {
  const wanted = contentTokens(keyword);
  const present = new Set(contentTokens(visibleText(text)));
  return wanted.length > 0 && wanted.every((token) => present.has(token));
};

/**
 * The primary keyword in the title (fail without: the title is what ranks), the first paragraph
 * and at least one heading (warn without).
 */
export function keywordCheck(input: CheckInput, text: BodyText): QualityCheck {
  const keyword = input.keyword?.trim() ?? '';
  if (!keyword || contentTokens(keyword).length === 0)
    return {
      name: 'keyword',
      status: 'pass',
      message: 'The topic has no keyword to place.',
      details: [],
    };
  const first = text.paragraphs[0];
  const details: CheckFinding[] = [];
  const titleLost = !hasKeyword(input.title, keyword);
  if (titleLost)
    details.push({
      text: input.title,
      start: null,
      end: null,
      note: 'The title does not contain the keyword.',
    });
  if (!first || !hasKeyword(first.text, keyword)) {
    details.push({
      text: first?.text ?? '',
      start: first?.start ?? null,
      end: first?.end ?? null,
      note: 'The first paragraph does not contain the keyword.',
    });
  }
  if (!text.headings.some((heading) => hasKeyword(heading.title, keyword)))
    details.push({ text: '', start: null, end: null, note: 'No heading contains the keyword.' });
  if (details.length === 0)
    return {
      name: 'keyword',
      status: 'pass',
      message: 'The keyword is in the title, the first paragraph and a heading.',
      details,
    };
  return {
    name: 'keyword',
    status: titleLost ? 'fail' : 'warn',
    message: details.map((finding) => finding.note).join(' '),
    details,
  };
}
