import type { CheckFinding, QualityCheck } from '../../../../domain/articles/quality.ts';
import { termPattern } from '../../../../integrations/llm/style.ts';
import type { Span } from './bodyText.ts';

/**
 * Phrases that mark filler, whatever the brand: the list docs/content-quality.md publishes.
 * Matched as whole words, case-insensitive, with any apostrophe.
 */
export const CLICHES = [
  "in today's fast-paced world",
  "in today's digital age",
  "in today's world",
  'in this day and age',
  'game-changer',
  'game changer',
  'game-changing',
  'leverage',
  'leveraging',
  'synergy',
  'unlock the power',
  'unlock the potential',
  'take it to the next level',
  'at the end of the day',
  'look no further',
  'dive into',
  'deep dive',
  "let's dive in",
  'revolutionize',
  'revolutionise',
  'cutting-edge',
  'best-in-class',
  'seamless',
  'seamlessly',
  'elevate your',
  'a testament to',
  'navigate the complexities',
  'ever-evolving',
  'ever-changing landscape',
  'in conclusion',
  'needless to say',
  'paradigm shift',
  'think outside the box',
] as const;

/** One or two clichés warn; three or more fail. */
const FAIL_AT = 3;

export function clichesCheck(sentences: readonly Span[]): QualityCheck {
  const details: CheckFinding[] = [];
  for (const sentence of sentences) {
    const text = sentence.text.replace(/[’‘]/g, "'");
    for (const phrase of CLICHES) {
      for (const match of text.matchAll(termPattern(phrase))) {
        const start = sentence.start + match.index;
        details.push({
          text: sentence.text.slice(match.index, match.index + match[0].length),
          start,
          end: start + match[0].length,
          note: `"${phrase}" is a cliché; say the specific thing instead.`,
        });
      }
    }
  }
  if (details.length === 0)
    return { name: 'cliches', status: 'pass', message: 'No cliché from the list.', details };
  const status = details.length >= FAIL_AT ? 'fail' : 'warn';
  return {
    name: 'cliches',
    status,
    message: `${details.length} cliché${details.length === 1 ? '' : 's'}: ${[...new Set(details.map((d) => d.text.toLowerCase()))].join(', ')}.`,
    details,
  };
}
