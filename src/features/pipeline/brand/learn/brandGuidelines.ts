import type { CompanyFacts, DoDont, Voice } from './brandProfile.ts';
import type { VoiceMetrics } from './brandVoice.ts';

const languageName = (tag: string): string | undefined => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag);
  } catch {
    return undefined;
  }
};

/** Writing rules a writer (person or model) can follow, each derived from what the site does. */
export function guidelinesOf(input: {
  metrics: VoiceMetrics;
  person: Voice['person'];
  formality: Voice['formality'];
  facts: CompanyFacts;
  language?: string;
}): DoDont {
  const { metrics: m, person, formality, facts } = input;
  const rules: Array<[boolean, 'do' | 'dont', string]> = [
    [
      Boolean(input.language && languageName(input.language)),
      'do',
      `Write in ${languageName(input.language ?? '')} (${input.language}).`,
    ],
    [person === 'second', 'do', 'Address the reader as "you".'],
    [person === 'first', 'do', 'Speak for the company as "we".'],
    [person === 'third', 'do', 'Refer to the company by name, in the third person.'],
    [Boolean(facts.name), 'do', `Call the company "${facts.name?.value}".`],
    [
      m.sentences > 0,
      'do',
      `Keep sentences around ${Math.max(8, Math.round(m.avgSentenceWords))} words, as the site does.`,
    ],
    [formality === 'casual', 'do', "Use contractions (we'll, don't) and plain, everyday words."],
    [formality === 'formal', 'do', 'Keep a formal register: full forms, precise wording.'],
    [
      m.numericShare >= 0.15 || facts.proofPoints.length > 0,
      'do',
      facts.proofPoints[0]
        ? `Back claims with concrete numbers from the company facts, like "${facts.proofPoints[0].value}".`
        : 'Back claims with concrete numbers.',
    ],
    [m.imperativeShare >= 0.1, 'do', 'Give practical steps the reader can act on.'],
    [
      true,
      'dont',
      "Don't invent facts, numbers, prices or customer names that are not in the company facts.",
    ],
    [m.sentences >= 5 && m.exclamationsPerSentence < 0.02, 'dont', "Don't use exclamation marks."],
    [m.sentences >= 5 && !m.usesEmoji, 'dont', "Don't use emoji."],
    [formality === 'formal', 'dont', "Don't use contractions, slang or jokes."],
    [
      formality !== 'formal',
      'dont',
      'Don\'t slip into corporate jargon ("leverage", "synergy", "solutions").',
    ],
    [
      person === 'second',
      'dont',
      'Don\'t talk about "users" or "customers" in the abstract when you can say "you".',
    ],
    [
      m.avgSentenceWords > 0 && m.avgSentenceWords < 14,
      'dont',
      "Don't write long, winding sentences.",
    ],
  ];
  return {
    do: rules.filter(([applies, kind]) => applies && kind === 'do').map(([, , text]) => text),
    dont: rules.filter(([applies, kind]) => applies && kind === 'dont').map(([, , text]) => text),
  };
}
