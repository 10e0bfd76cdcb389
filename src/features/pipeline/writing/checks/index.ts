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

/** The quality gate: every check, in a fixed order, computed without a model. */
export function runChecks(input: CheckInput): QualityCheck[] {
  const text = bodyText(input.body);
  // Headings break brand rules and carry clichés too; only sentences make claims.
  const prose = [...text.headings, ...text.sentences].sort((a, b) => a.start - b.start);
  return [
    groundingCheck(input, text.sentences),
    brandRulesCheck(input, prose),
    lengthCheck(input),
    keywordCheck(input, text),
    headingsCheck(input, text.headings),
    clichesCheck(prose),
    linksCheck(input),
    neutralisedCheck(input),
  ];
}
