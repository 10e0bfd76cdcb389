import type { Voice } from './brandProfile.ts';
import type { Sentence } from './brandText.ts';

const firstPerson = new Set([
  'we',
  "we're",
  "we've",
  "we'll",
  "we'd",
  'our',
  'ours',
  'us',
  'ourselves',
  'i',
  "i'm",
  "i've",
  "i'll",
  'me',
  'my',
  'mine',
]);
const secondPerson = new Set([
  'you',
  "you're",
  "you've",
  "you'll",
  "you'd",
  'your',
  'yours',
  'yourself',
  'yourselves',
]);
const casualWords = new Set([
  'awesome',
  'super',
  'hey',
  'folks',
  'cool',
  'stuff',
  'gonna',
  'wanna',
  'totally',
  'amazing',
  'love',
  'yay',
  'kinda',
  'crazy',
  'easy-peasy',
  'nope',
  'yep',
]);
const formalWords = new Set([
  'therefore',
  'furthermore',
  'moreover',
  'hereby',
  'pursuant',
  'utilize',
  'utilise',
  'comprehensive',
  'facilitate',
  'leverage',
  'enterprise',
  'solutions',
  'stakeholders',
  'accordingly',
  'whereas',
  'thereof',
  'ensure',
  'optimal',
]);
const warmWords = new Set([
  'love',
  'happy',
  'care',
  'together',
  'friendly',
  'thanks',
  'thank',
  'welcome',
  'proud',
  'enjoy',
]);
const technicalWords = new Set([
  'api',
  'sdk',
  'integration',
  'integrations',
  'platform',
  'deploy',
  'deployment',
  'data',
  'workflow',
  'workflows',
  'automation',
  'cloud',
  'infrastructure',
  'latency',
  'scalable',
]);
const imperativeStarts =
  /^(?:Start|Open|Add|Use|Try|Get|Make|Keep|Check|Learn|See|Read|Join|Know|Build|Create|Find|Plan|Set|Write|Book|Call|Ask|Take|Stop|Don't|Don’t|Never|Always)\b/;
const contraction =
  /^\p{L}+(?:n't|'re|'ve|'ll|'m|'d)$|^(?:it|that|there|what|here|let|he|she|who)'s$/u;

export type VoiceMetrics = {
  sentences: number;
  words: number;
  avgSentenceWords: number;
  firstPer100: number;
  secondPer100: number;
  contractionsPerSentence: number;
  exclamationsPerSentence: number;
  questionsPerSentence: number;
  imperativeShare: number;
  numericShare: number;
  casualPer100: number;
  formalPer100: number;
  warmPer100: number;
  technicalPer100: number;
  longWordShare: number;
  usesEmoji: boolean;
};

const tokens = (text: string) =>
  (
    text
      .toLowerCase()
      .replace(/[’‘]/g, "'")
      .match(/[\p{L}']+/gu) ?? []
  )
    .map((token) => token.replace(/^'+|'+$/g, ''))
    .filter(Boolean);

/** Counts that describe how the site writes. */
export function measureVoice(sentences: readonly Sentence[]): VoiceMetrics {
  const words = sentences.flatMap((sentence) => tokens(sentence.text));
  const count = (set: Set<string>) => words.filter((word) => set.has(word)).length;
  const per100 = (n: number) => (words.length === 0 ? 0 : (n * 100) / words.length);
  const share = (test: (s: Sentence) => boolean) =>
    sentences.length === 0 ? 0 : sentences.filter(test).length / sentences.length;
  const totalWords = sentences.reduce((sum, sentence) => sum + sentence.words, 0);
  return {
    sentences: sentences.length,
    words: words.length,
    avgSentenceWords:
      sentences.length === 0 ? 0 : Math.round((totalWords / sentences.length) * 10) / 10,
    firstPer100: per100(count(firstPerson)),
    secondPer100: per100(count(secondPerson)),
    contractionsPerSentence:
      sentences.length === 0
        ? 0
        : words.filter((word) => contraction.test(word)).length / sentences.length,
    exclamationsPerSentence: share((s) => s.text.includes('!')),
    questionsPerSentence: share((s) => /\?["”’)]?$/.test(s.text)),
    imperativeShare: share((s) => imperativeStarts.test(s.text)),
    numericShare: share((s) => /\d/.test(s.text)),
    casualPer100: per100(count(casualWords)),
    formalPer100: per100(count(formalWords)),
    warmPer100: per100(count(warmWords)),
    technicalPer100: per100(count(technicalWords)),
    longWordShare:
      words.length === 0 ? 0 : words.filter((word) => word.length >= 9).length / words.length,
    usesEmoji: sentences.some((s) => /\p{Extended_Pictographic}/u.test(s.text)),
  };
}

export function personOf(m: VoiceMetrics): Voice['person'] {
  if (Math.max(m.firstPer100, m.secondPer100) < 0.8) return 'third';
  return m.secondPer100 >= m.firstPer100 ? 'second' : 'first';
}

export function formalityOf(m: VoiceMetrics): Voice['formality'] {
  let score = 0;
  if (m.contractionsPerSentence >= 0.15) score += 1;
  if (m.exclamationsPerSentence >= 0.1) score += 1;
  if (m.casualPer100 >= 0.5) score += 1;
  if (m.avgSentenceWords > 0 && m.avgSentenceWords < 14) score += 0.5;
  if (m.formalPer100 >= 0.5) score -= 1;
  if (m.avgSentenceWords > 22) score -= 1;
  if (m.contractionsPerSentence === 0 && m.sentences >= 8) score -= 0.5;
  if (m.longWordShare > 0.28) score -= 0.5;
  return score >= 1 ? 'casual' : score <= -1 ? 'formal' : 'neutral';
}

/** Named traits, in a fixed order, each backed by a measurement. */
export function traitsOf(
  m: VoiceMetrics,
  person: Voice['person'],
  formality: Voice['formality'],
): string[] {
  const traits: Array<[boolean, string]> = [
    [person === 'second', 'direct'],
    [m.firstPer100 >= 1, 'inclusive'],
    [formality === 'casual', 'conversational'],
    [formality === 'formal', 'professional'],
    [m.avgSentenceWords > 0 && m.avgSentenceWords < 14, 'concise'],
    [m.avgSentenceWords > 22, 'detailed'],
    [m.imperativeShare >= 0.1, 'action-oriented'],
    [m.numericShare >= 0.15, 'data-driven'],
    [m.exclamationsPerSentence >= 0.1, 'enthusiastic'],
    [m.questionsPerSentence >= 0.08, 'question-led'],
    [m.warmPer100 >= 0.3, 'warm'],
    [m.technicalPer100 >= 0.5, 'technical'],
  ];
  return traits.filter(([applies]) => applies).map(([, trait]) => trait);
}

/**
 * Sentences that show the voice: mid-length, complete, using the site's person, from different
 * pages where possible.
 */
export function voiceExamples(
  sentences: readonly Sentence[],
  person: Voice['person'],
  max = 3,
): string[] {
  const marker =
    person === 'second' ? /\b(?:you|your)\b/i : person === 'first' ? /\b(?:we|our|us)\b/i : /./;
  const candidates = sentences.filter(
    (s) => s.words >= 8 && s.words <= 28 && /[.!?]["”’)]?$/.test(s.text) && marker.test(s.text),
  );
  const chosen: Sentence[] = [];
  for (const candidate of candidates) {
    if (chosen.length < max && !chosen.some((s) => s.sourceUrl === candidate.sourceUrl))
      chosen.push(candidate);
  }
  for (const candidate of candidates)
    if (chosen.length < max && !chosen.includes(candidate)) chosen.push(candidate);
  return chosen.map((s) => s.text);
}

export function voiceSummary(
  person: Voice['person'],
  formality: Voice['formality'],
  m: VoiceMetrics,
): string {
  if (m.sentences === 0) return 'Not enough text on the site to describe its voice.';
  const who = {
    first: 'Speaks as "we"',
    second: 'Talks to the reader directly as "you"',
    third: 'Describes the company in the third person',
  }[person];
  const tone = {
    casual: 'in a casual, conversational tone',
    neutral: 'in a clear, neutral tone',
    formal: 'in a formal, professional tone',
  }[formality];
  const length =
    m.avgSentenceWords < 14 ? 'short' : m.avgSentenceWords <= 22 ? 'medium-length' : 'long';
  const extras = [
    m.contractionsPerSentence >= 0.15 ? 'uses contractions' : '',
    m.numericShare >= 0.15 ? 'backs claims with numbers' : '',
    m.imperativeShare >= 0.1 ? 'gives practical instructions' : '',
  ].filter(Boolean);
  const tail =
    extras.length > 0 ? ` It ${extras.join(', ').replace(/, ([^,]*)$/, ' and $1')}.` : '';
  return `${who} ${tone}, with ${length} sentences (about ${Math.round(m.avgSentenceWords)} words).${tail}`;
}
