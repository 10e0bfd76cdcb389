import { z } from 'zod';
import type { LlmPort, TokenUsage } from '../../../integrations/llm/port.ts';
import { fitText, PROMPT_BUDGET } from '../../../integrations/llm/promptBudget.ts';
import { MAX_OUTPUT_TOKENS } from '../../../integrations/llm/tokenCaps.ts';
import type { BrandProfile, CrawledPageSummary } from '../../../domain/projects/brand.ts';

const VoiceAnswer = z.object({
  summary: z.string().min(20).max(1200),
  voiceTraits: z.array(z.string().min(2).max(60)).min(3).max(8),
  do: z.array(z.string().min(5).max(280)).min(3).max(10),
  dont: z.array(z.string().min(5).max(280)).min(3).max(10),
});

const REFINE_TIMEOUT_MS = 90_000;

export type Refined = { brand: BrandProfile; model: string; usage: TokenUsage };

/**
 * With a real model, the voice, its traits and the do/don'ts are rewritten from the site's own
 * text, starting from what the offline learner measured; facts and palette stay as measured.
 * Bounded in time: a slow or failing model leaves the measured profile in place (the caller
 * falls back), so a crawl never hangs on it.
 */
export async function refineVoice(
  llm: LlmPort,
  brand: BrandProfile,
  pages: readonly CrawledPageSummary[],
  model: string | undefined,
): Promise<Refined> {
  let sample = '';
  for (const page of pages) {
    if (sample.length >= PROMPT_BUDGET.voiceSample) break;
    sample += `\n## ${fitText(page.title, PROMPT_BUDGET.pageTitle)} (${fitText(page.url, PROMPT_BUDGET.pageTitle * 2)})\n${fitText(page.text, PROMPT_BUDGET.voiceSamplePerPage)}\n`;
  }
  sample = fitText(sample, PROMPT_BUDGET.voiceSample);
  const request = llm.generateObject({
    schema: VoiceAnswer,
    schemaName: 'brand_voice',
    model,
    temperature: 0.2,
    maxOutputTokens: MAX_OUTPUT_TOKENS.brandVoice,
    system:
      'You are a brand editor. You describe how a website writes so that other writers can match it. Be concrete and brief.',
    prompt: `Measured so far (keep what is right, correct what is not):
Voice: ${fitText(brand.voice.summary, PROMPT_BUDGET.voice)} (person: ${brand.voice.person}, formality: ${brand.voice.formality}, about ${Math.round(brand.voice.avgSentenceWords)} words per sentence)
Traits: ${fitText(brand.voiceTraits.join(', '), PROMPT_BUDGET.voiceTraits) || '(none)'}
Do: ${fitText(brand.doDont.do.join(' | '), PROMPT_BUDGET.doRules) || '(none)'}
Don't: ${fitText(brand.doDont.dont.join(' | '), PROMPT_BUDGET.dontRules) || '(none)'}

Give: a summary of the voice in two or three sentences a writer can follow; 3-8 single-word or two-word traits; 3-10 do rules and 3-10 don't rules drawn from how this site actually writes (words it uses or avoids, sentence length, how it addresses the reader).

The site's text:
${sample}`,
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the model did not answer within ${REFINE_TIMEOUT_MS / 1000} s`)),
      REFINE_TIMEOUT_MS,
    );
  });
  try {
    const answer = await Promise.race([request, timeout]);
    const { summary, voiceTraits, do: dos, dont } = answer.value;
    return {
      brand: {
        ...brand,
        voice: { ...brand.voice, summary },
        voiceTraits,
        doDont: { do: dos, dont },
      },
      model: answer.model,
      usage: answer.usage,
    };
  } finally {
    clearTimeout(timer);
  }
}
