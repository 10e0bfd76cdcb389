/** The closed set of error codes the service answers with; the HTTP layer maps each to a status. */
export type ErrorCode =
  | 'bad_request'
  | 'validation_failed'
  | 'unauthorized'
  | 'forbidden'
  | 'payment_required'
  | 'not_found'
  | 'invalid_state'
  | 'conflict'
  | 'idempotency_mismatch'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'request_timeout'
  | 'cursor_expired'
  | 'resume_expired'
  | 'unavailable'
  | 'internal';

export type FieldIssue = { path: string; message: string };

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: FieldIssue[];

  constructor(
    code: ErrorCode,
    message: string,
    options: { cause?: unknown; details?: FieldIssue[] } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;
