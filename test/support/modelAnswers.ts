/** Plausible answers to every kind of model call Inkstream makes, for a fake OpenAI server's `respond`. */
import { reply, type RecordedRequest, type ScriptedResponse } from './fakeOpenAi.ts';

const idea = (title: string, keyword: string) => ({
  title,
  keyword,
  brief: `What a bakery needs to know about ${keyword}.`,
  rationale: 'The blog covers it.',
});
export const modelAnswers = (): Record<string, unknown> => ({
  brand_voice: {
    summary: 'Plain, warm and practical: short sentences that talk to bakers as peers.',
    voiceTraits: ['warm', 'practical', 'direct'],
    do: ['Talk to the baker as "you"', 'Use concrete numbers', 'Keep sentences short'],
    dont: ['No jargon like "synergy"', 'No exclamation marks', 'Never talk down'],
  },
  topic_suggestions: {
    topics: [
      idea('Sourdough starter care for busy mornings', 'sourdough starter'),
      idea('Wholesale pricing for cafes', 'wholesale pricing'),
      idea('Reducing day-old waste', 'bakery waste'),
      idea('Staffing the early shift', 'bakery staffing'),
      idea('Gluten-free without cross-contact', 'gluten-free baking'),
      idea('Seasonal menus that sell', 'seasonal menu'),
    ],
  },
  article_research: {
    outline: [
      { heading: 'Why pre-orders matter', points: ['Predictable bake lists'] },
      { heading: 'Setting pickup slots', points: ['Cap each slot'] },
      { heading: 'Pricing holiday bakes', points: ['Cover the extra hours'] },
    ],
    keyPoints: ['Open early'],
    sources: [],
  },
  article_draft: {
    title: 'Holiday Pre-Orders for Small Bakeries',
    description: 'How to run holiday pre-orders without chaos, from pickup slots to pricing.',
    body: `Holiday weeks decide a bakery's quarter. ${'Open pre-orders early, cap each pickup slot and bake to the list. '.repeat(8)}\n`,
    tags: ['pre-orders'],
    internalLinks: [],
  },
  article_revision: {
    body: `Holiday weeks decide a bakery's quarter. ${'Open early and cap each slot. '.repeat(6)}\n`,
    summary: 'Shortened the introduction.',
  },
});
/** The schema name of a structured call: brand_voice, topic_suggestions, article_research, article_draft, article_revision. */
export const kindOf = (request: RecordedRequest): string =>
  request.body.response_format?.json_schema?.name;

export const answerEveryCall = (request: RecordedRequest): ScriptedResponse =>
  reply.object(modelAnswers()[kindOf(request)] ?? {});
