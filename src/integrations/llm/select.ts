import { createOfflineWriter } from './offline/index.ts';
import { createOpenAiLlm } from './openai.ts';
import { createLlmWriter } from './openaiWriter.ts';
import type { LlmPort } from './port.ts';
import type { ContentWriter } from './writer.ts';

export const DEFAULT_MODEL = 'gpt-4o-mini';

export type LlmConfig = {
  /** Absent or empty: the offline writer. */
  apiKey?: string;
  baseURL?: string;
  defaultModel: string;
  timeoutMs?: number;
  maxRetries?: number;
  concurrency?: number;
};

const positiveInt = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
};

export function llmConfigFromEnv(env: Record<string, string | undefined> = process.env): LlmConfig {
  return {
    apiKey: env.OPENAI_API_KEY?.trim() || undefined,
    baseURL: env.OPENAI_BASE_URL?.trim() || undefined,
    defaultModel: env.INKSTREAM_DEFAULT_MODEL?.trim() || DEFAULT_MODEL,
    timeoutMs: positiveInt('INKSTREAM_LLM_TIMEOUT_MS', env.INKSTREAM_LLM_TIMEOUT_MS),
    maxRetries: positiveInt('INKSTREAM_LLM_MAX_RETRIES', env.INKSTREAM_LLM_MAX_RETRIES),
    concurrency: positiveInt('INKSTREAM_LLM_CONCURRENCY', env.INKSTREAM_LLM_CONCURRENCY),
  };
}

/** With a key: the model-backed writer (and its port for other uses). Without: the offline writer. */
export function createContentWriter(config: LlmConfig): { writer: ContentWriter; llm?: LlmPort } {
  if (!config.apiKey) return { writer: createOfflineWriter() };
  const llm = createOpenAiLlm({ ...config, apiKey: config.apiKey });
  return { writer: createLlmWriter(llm), llm };
}
