import type { CheckFinding, QualityCheck } from '../../../../domain/articles/quality.ts';
import { contentTokens, jaccard } from '../../../../integrations/llm/text.ts';
import type { CheckInput } from './checkInput.ts';
import type { Heading } from './bodyText.ts';

const SAME_HEADING = 0.5;

const covers = (heading: string, section: string): boolean => {
  const a = new Set(contentTokens(heading));
  const b = new Set(contentTokens(section));
  return jaccard(a, b) >= SAME_HEADING || (b.size > 0 && [...b].every((token) => a.has(token)));
};

/** Each outline section has a heading that shares most of its words: warn when some are missing, fail when most are. */
export function headingsCheck(input: CheckInput, headings: readonly Heading[]): QualityCheck {
  if (input.outline.length === 0)
    return {
      name: 'headings',
      status: 'pass',
      message: 'There is no outline to compare the headings with.',
      details: [],
    };
  const details: CheckFinding[] = input.outline
    .filter((section) => !headings.some((heading) => covers(heading.title, section.heading)))
    .map((section) => ({
      text: section.heading,
      start: null,
      end: null,
      note: 'No heading of the article covers this outline section.',
    }));
  const covered = input.outline.length - details.length;
  const message = `${covered} of ${input.outline.length} outline sections have a heading.`;
  const status =
    details.length === 0 ? 'pass' : covered * 2 < input.outline.length ? 'fail' : 'warn';
  return { name: 'headings', status, message, details };
}
