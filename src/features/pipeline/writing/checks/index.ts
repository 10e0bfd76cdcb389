import type { QualityCheck } from '../../../../domain/articles/quality.ts';
import { bodyText } from './bodyText.ts';
import { brandRulesCheck } from './brandRules.ts';
import type { CheckInput } from './checkInput.ts';
import { clichesCheck } from './cliches.ts';
import { groundingCheck } from './grounding.ts';
import { headingsCheck } from './headings.ts';
import { keywordCheck } from './keyword.ts';
import { lengthCheck } from './length.ts';
import { linksCheck } from './links.ts';
import { neutralisedCheck } from './neutralised.ts';

export { TARGET_WORDS, type CheckInput } from './checkInput.ts';

/**
 * A brief lists the keyword, the outline as a list and quotes from the site: what it is for is
 * checked (grounding, brand rules, clichés, links, neutralised code); an article's structure is not.
 */
const notForABrief = (name: 'length' | 'keyword' | 'headings', what: string): QualityCheck => ({
  name,
  status: 'pass',
  message: `Not checked: this is a brief for an author, not an article, so ${what} is not held to an article's standard.`,
  details: [],
});

/** The quality gate: every check, in a fixed order, computed without a model. */
export function runChecks(input: CheckInput): QualityCheck[] {
  const text = bodyText(input.body);
  // Headings break brand rules and carry clichés too; only sentences make claims.
  const prose = [...text.headings, ...text.sentences].sort((a, b) => a.start - b.start);
  const brief = input.kind === 'brief';
  return [
    groundingCheck(input, text.sentences),
    brandRulesCheck(input, prose),
    brief ? notForABrief('length', 'its length') : lengthCheck(input),
    brief ? notForABrief('keyword', 'where the keyword stands') : keywordCheck(input, text),
    brief
      ? notForABrief('headings', 'whether the outline sections are headings')
      : headingsCheck(input, text.headings),
    clichesCheck(prose),
    linksCheck(input),
    neutralisedCheck(input),
  ];
}
