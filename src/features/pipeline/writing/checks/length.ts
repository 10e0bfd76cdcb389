import type { QualityCheck } from '../../../../domain/articles/quality.ts';
import { countWords } from '../../../../mdx/mdx.ts';
import type { CheckInput } from './checkInput.ts';

/** Below half the target an article is far too short (fail); below 90 % it is short (warn). */
export function lengthCheck(input: CheckInput): QualityCheck {
  const words = countWords(input.body);
  const share = words / input.targetWords;
  const status = share < 0.5 ? 'fail' : share < 0.9 ? 'warn' : 'pass';
  const message =
    status === 'pass'
      ? `${words} words against a target of ${input.targetWords}.`
      : `${words} words: ${Math.round(share * 100)}% of the ${input.targetWords} asked for.`;
  return { name: 'length', status, message, details: [] };
}
