import type { Config } from '../../core/config.ts';
import { createLimiter } from '../../core/limiter.ts';
import type { OpenAiLlmOptions } from './openai.ts';
import { createLlmWriter } from './openaiWriter.ts';
import type { LlmPort } from './port.ts';
import { limitProviderCalls } from './providerLimit.ts';
import { createTokenHeadroom } from './rateLimitHeaders.ts';
import type { ContentWriter } from './writer.ts';

export const DEFAULT_MODEL = 'gpt-4o-mini';

export type LlmConfig = {
  /** Absent or empty: the offline writer. */
  apiKey?: string;
  baseURL?: string;
  defaultModel: string;
  timeoutMs?: number;
  maxRetries?: number;
  /** Requests in flight at once to the provider endpoint, across the whole pipeline. */
  concurrency?: number;
  /** Requests started per minute to the provider endpoint; unset: no per-minute cap. */
  requestsPerMinute?: number;
  /** Tokens (prompt plus the answer's cap) started per minute to the provider endpoint; unset: no cap. */
  tokensPerMinute?: number;
};

/** Suits OpenAI's lower usage tiers (docs/llm.md, "Provider limits"). */
export const DEFAULT_LLM_CONCURRENCY = 8;
/** How long one call waits out a provider's 429s in total before its step fails. */
export const MAX_RATE_LIMIT_WAIT_MS = 15 * 60_000;

/** The LLM settings of the configuration (core/config.ts), validated there. */
export type LlmSettings = Pick<
  Config,
  | 'OPENAI_API_KEY'
  | 'OPENAI_BASE_URL'
  | 'INKSTREAM_DEFAULT_MODEL'
  | 'INKSTREAM_LLM_TIMEOUT_MS'
  | 'INKSTREAM_LLM_MAX_RETRIES'
  | 'INKSTREAM_LLM_CONCURRENCY'
  | 'INKSTREAM_LLM_REQUESTS_PER_MINUTE'
  | 'INKSTREAM_LLM_TOKENS_PER_MINUTE'
>;

export function llmConfigOf(settings: LlmSettings): LlmConfig {
  return {
    apiKey: settings.OPENAI_API_KEY?.trim() || undefined,
    baseURL: settings.OPENAI_BASE_URL?.trim() || undefined,
    defaultModel: settings.INKSTREAM_DEFAULT_MODEL.trim() || DEFAULT_MODEL,
    timeoutMs: settings.INKSTREAM_LLM_TIMEOUT_MS || undefined,
    maxRetries: settings.INKSTREAM_LLM_MAX_RETRIES,
    concurrency: settings.INKSTREAM_LLM_CONCURRENCY || undefined,
    requestsPerMinute: settings.INKSTREAM_LLM_REQUESTS_PER_MINUTE || undefined,
    tokensPerMinute: settings.INKSTREAM_LLM_TOKENS_PER_MINUTE || undefined,
  };
}

/**
 * Which writer this configuration runs: the model (with the model asked for when a project names
 * none) or the offline writer, which writes briefs. For the start-up log; /readyz says only which.
 */
export function writerState(config: LlmConfig): {
  writer: 'model' | 'offline';
  model: string | null;
} {
  return config.apiKey
    ? { writer: 'model', model: config.defaultModel }
    : { writer: 'offline', model: null };
}

/** With a key: the model-backed writer (and its port for other uses). Without: the offline writer. */
export function createContentWriter(config: LlmConfig): { writer: ContentWriter; llm?: LlmPort } {
  if (!config.apiKey) return { writer: offlineWriterLoadedOnUse() };
  const concurrency = config.concurrency ?? DEFAULT_LLM_CONCURRENCY;
  const limiter = createLimiter({
    concurrency,
    rate: config.requestsPerMinute
      ? { limit: config.requestsPerMinute, windowMs: 60_000 }
      : undefined,
  });
  // The adapter hands a wait the provider asks for back at once, so the limiter pauses every call to the endpoint.
  const headroom = createTokenHeadroom(Date.now);
  const adapter = openAiLlmLoadedOnUse({
    ...config,
    apiKey: config.apiKey,
    concurrency,
    maxRetryAfterMs: 0,
    onResponseHeaders: (headers) => headroom.observe(headers),
  });
  const llm = limitProviderCalls(adapter, {
    limiter,
    key: config.baseURL ?? 'https://api.openai.com/v1',
    maxRateLimitWaitMs: MAX_RATE_LIMIT_WAIT_MS,
    backoff: { baseDelayMs: 1000, maxDelayMs: 60_000, random: Math.random },
    nowMs: Date.now,
    headroom,
    tokens: config.tokensPerMinute
      ? createLimiter({
          concurrency: Number.MAX_SAFE_INTEGER,
          rate: { limit: config.tokensPerMinute, windowMs: 60_000 },
        })
      : undefined,
  });
  return { writer: createLlmWriter(llm), llm };
}

/** The offline writer, with the MDX toolchain it writes through (~20 MB resident), loaded by its first call rather than at start. */
function offlineWriterLoadedOnUse(): ContentWriter {
  let writer: Promise<ContentWriter> | null = null;
  const load = () =>
    (writer ??= import('./offline/index.ts').then(({ createOfflineWriter }) =>
      createOfflineWriter(),
    ));
  return {
    provider: 'offline',
    suggestTopics: async (input) => (await load()).suggestTopics(input),
    researchArticle: async (input) => (await load()).researchArticle(input),
    writeArticle: async (input) => (await load()).writeArticle(input),
    reviseArticle: async (input) => (await load()).reviseArticle(input),
  };
}

/** The OpenAI adapter, its SDK (~18 MB resident) loaded by the first call rather than at start. */
function openAiLlmLoadedOnUse(options: OpenAiLlmOptions): LlmPort {
  let adapter: Promise<LlmPort> | null = null;
  const load = () =>
    (adapter ??= import('./openai.ts').then(({ createOpenAiLlm }) => createOpenAiLlm(options)));
  return {
    provider: 'openai',
    defaultModel: options.defaultModel,
    generateObject: async (request) => (await load()).generateObject(request),
    generateText: async (request) => (await load()).generateText(request),
  };
}
