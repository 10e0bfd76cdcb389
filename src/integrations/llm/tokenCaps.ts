/**
 * The most tokens a model may generate per call, by kind of call: what each answer needs with
 * room to spare (a draft of 800-2,000 words is about 1,100-2,700 tokens of JSON string), so a
 * runaway answer is cut off instead of billed. A cut answer gets the one repair request ("answer
 * more briefly"), then fails the step with a reason.
 */
export const MAX_OUTPUT_TOKENS = {
  topicSuggestions: 3_000,
  research: 2_500,
  draft: 6_000,
  /** The whole revised body comes back, so this must hold the longest body a revision accepts. */
  revision: 8_000,
  brandVoice: 1_500,
} as const;

/**
 * OpenAI's own API takes `max_completion_tokens` (its reasoning models reject `max_tokens`);
 * Ollama and LM Studio read only `max_tokens` and ignore the other, which would leave calls
 * uncapped. So the first request names the field the server is known to read, and a server that
 * rejects it is asked again with the other (see `isTokenLimitRejection`).
 */
export type TokenLimitParam = 'max_completion_tokens' | 'max_tokens';

export function tokenLimitParamFor(baseURL: string): TokenLimitParam {
  const host = new URL(baseURL).hostname;
  return host === 'api.openai.com' || host.endsWith('.openai.azure.com')
    ? 'max_completion_tokens'
    : 'max_tokens';
}

export const otherTokenLimitParam = (param: TokenLimitParam): TokenLimitParam =>
  param === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';

/** A 400 that names the token-limit field we sent as unsupported ("Use 'max_completion_tokens' instead"). */
export function isTokenLimitRejection(
  status: number | undefined,
  message: string,
  sent: TokenLimitParam,
): boolean {
  if (status !== 400 && status !== 422) return false;
  const named =
    new RegExp(`['"\`]?${sent}['"\`]?`).test(message) && !message.includes(`Use '${sent}'`);
  return (
    named && /unsupported|not supported|unrecognized|unknown|not permitted|extra/i.test(message)
  );
}
