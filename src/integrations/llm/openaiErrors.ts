import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { LlmError } from './port.ts';
import { providerWaitMs } from './rateLimitHeaders.ts';

/** Maps what the openai SDK throws to an LlmError; anything else (a bug) is rethrown untouched. */
export function toLlmError(
  cause: unknown,
  context: { model: string; baseURL: string; timeoutMs: number },
): LlmError {
  if (cause instanceof LlmError) return cause;
  if (cause instanceof APIConnectionTimeoutError) {
    return new LlmError(
      'timeout',
      `The language model did not answer within ${Math.round(context.timeoutMs / 1000)} s.`,
      { cause },
    );
  }
  if (cause instanceof APIConnectionError) {
    return new LlmError(
      'connection',
      `Could not reach the language model server at ${context.baseURL}.`,
      {
        message: `${cause.message}: ${String((cause.cause as Error | undefined)?.message ?? '')}`,
        cause,
      },
    );
  }
  if (!(cause instanceof APIError) || cause.status === undefined) throw cause;
  const status = cause.status;
  const detail = {
    message: cause.message,
    status,
    cause,
    retryAfterMs: providerWaitMs(cause.headers, Date.now()),
  };
  if (status === 429 && cause.code === 'insufficient_quota') {
    return new LlmError(
      'quota_exceeded',
      'The language model account has run out of quota; add credit or change OPENAI_API_KEY.',
      detail,
    );
  }
  if (status === 429)
    return new LlmError(
      'rate_limited',
      'The language model provider is rate limiting requests; try again shortly.',
      detail,
    );
  if (status === 401 || status === 403) {
    return new LlmError(
      'auth',
      'The language model provider rejected the API key; check OPENAI_API_KEY.',
      detail,
    );
  }
  if (status === 404) {
    return new LlmError(
      'model_not_found',
      `The model "${context.model}" is not available at ${context.baseURL}; check the project's model setting.`,
      detail,
    );
  }
  if (status === 408 || status === 409 || status >= 500) {
    return new LlmError(
      'server',
      `The language model server failed (HTTP ${status}); try again later.`,
      detail,
    );
  }
  return new LlmError(
    'bad_request',
    `The language model server refused the request (HTTP ${status}): ${cause.message}`,
    detail,
  );
}

/** A 400 about the context window is not a sign that the server lacks structured output. */
export function isResponseFormatRejection(error: LlmError): boolean {
  if (error.kind !== 'bad_request' || (error.status !== 400 && error.status !== 422)) return false;
  return !/context[_ ]length|maximum context|too many tokens/i.test(error.message);
}
