import { isLlmError } from '../../integrations/llm/port.ts';
import { isSafeHttpError } from '../../integrations/safeHttp/index.ts';

const MAX_REASON = 600;

/** What went wrong, in words safe to store in an event and show a user (no stack, no secrets). */
export function describeError(error: unknown): string {
  if (isLlmError(error)) return error.reason;
  if (isSafeHttpError(error)) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** What the user can do next, by kind of failure: fix configuration, or simply try again. */
export function remedyFor(error: unknown, retry: string): string {
  if (isLlmError(error)) {
    if (error.kind === 'auth') return `Check OPENAI_API_KEY on the server, then ${retry}.`;
    if (error.kind === 'model_not_found')
      return `Set the project's settings.model to a model the server offers (PATCH /projects/:id), then ${retry}.`;
    if (error.kind === 'quota_exceeded')
      return `Add credit to the model provider's account, then ${retry}.`;
  }
  return `${retry.charAt(0).toUpperCase()}${retry.slice(1)}.`;
}

export function failureReason(what: string, error: unknown, retry: string): string {
  const reason = `${what} failed: ${describeError(error).replace(/\s+$/, '').replace(/\.$/, '')}. ${remedyFor(error, retry)}`;
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason;
}
