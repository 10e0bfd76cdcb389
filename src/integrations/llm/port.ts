import type { z } from 'zod';

export type LlmProvider = 'openai' | 'offline';

export type TokenUsage = { promptTokens: number; completionTokens: number; totalTokens: number };

export type GenerateObjectRequest<T> = {
  schema: z.ZodType<T>;
  /** Names the response format (a-z, A-Z, 0-9, _ and -, at most 64 chars). */
  schemaName: string;
  system: string;
  prompt: string;
  /** Overrides the adapter's default model for this call. */
  model?: string;
  temperature?: number;
  /** The most tokens the answer may take (MAX_OUTPUT_TOKENS in tokenCaps.ts); every call has one. */
  maxOutputTokens: number;
};

export type GenerateObjectResult<T> = {
  value: T;
  usage: TokenUsage;
  model: string;
  provider: LlmProvider;
};

export type GenerateTextRequest = {
  system: string;
  prompt: string;
  model?: string;
  temperature?: number;
  maxOutputTokens: number;
};

export type GenerateTextResult = {
  text: string;
  usage: TokenUsage;
  model: string;
  provider: LlmProvider;
};

/** The one way the application talks to a language model. */
export interface LlmPort {
  readonly provider: LlmProvider;
  readonly defaultModel: string;
  generateObject<T>(request: GenerateObjectRequest<T>): Promise<GenerateObjectResult<T>>;
  generateText(request: GenerateTextRequest): Promise<GenerateTextResult>;
}

export type LlmErrorKind =
  | 'rate_limited'
  | 'quota_exceeded'
  | 'timeout'
  | 'connection'
  | 'server'
  | 'auth'
  | 'model_not_found'
  | 'bad_request'
  | 'invalid_output'
  | 'refused';

/**
 * Everything that can go wrong talking to a model. `retryable` says whether the same request may
 * succeed later (the adapter has already spent its own retries); `reason` is safe to show a user
 * and to record in an event, `message` carries the technical detail.
 */
export class LlmError extends Error {
  readonly kind: LlmErrorKind;
  readonly retryable: boolean;
  readonly reason: string;
  readonly status?: number;
  /** How long the provider asked us to wait before the next request (a 429's Retry-After or rate-limit reset). */
  readonly retryAfterMs?: number;

  constructor(
    kind: LlmErrorKind,
    reason: string,
    options: { message?: string; status?: number; cause?: unknown; retryAfterMs?: number } = {},
  ) {
    super(options.message ?? reason, { cause: options.cause });
    this.name = 'LlmError';
    this.kind = kind;
    this.retryable = RETRYABLE[kind];
    this.reason = reason;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

const RETRYABLE: Record<LlmErrorKind, boolean> = {
  rate_limited: true,
  quota_exceeded: false,
  timeout: true,
  connection: true,
  server: true,
  auth: false,
  model_not_found: false,
  bad_request: false,
  invalid_output: false,
  refused: false,
};

export const isLlmError = (error: unknown): error is LlmError => error instanceof LlmError;

export const zeroUsage = (): TokenUsage => ({
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
});

export const addUsage = (a: TokenUsage, b: TokenUsage): TokenUsage => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  totalTokens: a.totalTokens + b.totalTokens,
});
