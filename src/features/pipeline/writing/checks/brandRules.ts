import type { CheckFinding, QualityCheck } from '../../../../domain/articles/quality.ts';
import { styleRules, termPattern } from '../../../../integrations/llm/style.ts';
import type { CheckInput } from './checkInput.ts';
import type { Span } from './bodyText.ts';
import { isHealthClaim } from './claimMarkers.ts';

/** A don't line against health or medical claims ("We never make health claims"). */
const NO_HEALTH_CLAIMS = /\b(?:health|medical)\b/i;

/**
 * The brand's don'ts, checked sentence by sentence: a banned term still standing (the terms each
 * line bans, as brandRuleTerms reads them), an exclamation mark where the brand has none, and a
 * health claim where the brand makes none. "Do" lines describe a manner and are not checked.
 */
export function brandRulesCheck(input: CheckInput, sentences: readonly Span[]): QualityCheck {
  const rules = styleRules({ name: '', voice: '', companyFacts: [], ...input.brand });
  const noHealth = input.brand.doDont.dont.find((line) => NO_HEALTH_CLAIMS.test(line));
  const details: CheckFinding[] = [];
  for (const sentence of sentences) {
    const notes: string[] = [];
    for (const term of rules.bannedTerms)
      if (termPattern(term).test(sentence.text))
        notes.push(`uses "${term}", which the brand's don'ts rule out`);
    if (rules.noExclamations && /!(?=\s|$)/.test(sentence.text))
      notes.push('ends with an exclamation mark, which the brand does not use');
    if (noHealth && isHealthClaim(sentence.text))
      notes.push(`makes a health claim; the brand's rule: ${noHealth}`);
    if (notes.length)
      details.push({
        text: sentence.text,
        start: sentence.start,
        end: sentence.end,
        note: `This sentence ${notes.join('; ')}.`,
      });
  }
  if (details.length === 0) {
    const checked = rules.bannedTerms.length + (rules.noExclamations ? 1 : 0) + (noHealth ? 1 : 0);
    return {
      name: 'brandRules',
      status: 'pass',
      message: checked
        ? "No sentence breaks the brand's don'ts."
        : "The brand has no don't the checks can read.",
      details,
    };
  }
  return {
    name: 'brandRules',
    status: 'fail',
    message: `${details.length} sentence${details.length === 1 ? '' : 's'} break the brand's don'ts.`,
    details,
  };
}
