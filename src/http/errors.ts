import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { AppError, type ErrorCode, type FieldIssue } from '../core/errors.ts';
import { bodyPending } from './body.ts';
import { closeUnread } from './closeUnread.ts';
import { sendJson } from './respond.ts';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  bad_request: 400,
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  payment_required: 402,
  not_found: 404,
  invalid_state: 409,
  conflict: 409,
  idempotency_mismatch: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  request_timeout: 408,
  cursor_expired: 410,
  resume_expired: 410,
  internal: 500,
  unavailable: 503,
};

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      requestId: z.string().optional(),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    }),
  })
  .meta({ id: 'Error' });

export function sendError(res: ServerResponse, error: AppError, requestId?: string): void {
  // Refused before its body arrived (no key, over a limit, too large, too slow): the connection
  // is closed rather than the rest of the body read to keep it.
  if (res.req && bodyPending(res.req)) closeUnread(res);
  const body: { code: ErrorCode; message: string; requestId?: string; details?: FieldIssue[] } = {
    code: error.code,
    message: error.message,
  };
  if (requestId) body.requestId = requestId;
  if (error.details) body.details = error.details;
  sendJson(res, STATUS_BY_CODE[error.code], { error: body });
}

export function fieldIssues(error: z.ZodError, prefix: string): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter(Boolean).join('.'),
    message: issue.message,
  }));
}

/** Answers any error: AppErrors as they are, the body parser's by their type, anything else as a 500. */
export function sendAnyError(
  res: ServerResponse,
  error: unknown,
  requestId: string,
  onUnexpected: (error: unknown, requestId: string) => void,
): void {
  if (res.headersSent) return;
  if (error instanceof AppError) return sendError(res, error, requestId);
  const type = (error as { type?: string }).type;
  if (type === 'entity.too.large')
    return sendError(
      res,
      new AppError('payload_too_large', 'The request body is larger than 1 MB.'),
      requestId,
    );
  if (type === 'entity.parse.failed')
    return sendError(
      res,
      new AppError('bad_request', 'The request body is not valid JSON.'),
      requestId,
    );
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return sendError(
      res,
      new AppError('unsupported_media_type', 'The request body must be UTF-8 JSON.'),
      requestId,
    );
  }
  if ((error as { status?: number }).status === 400)
    return sendError(res, new AppError('bad_request', 'The request could not be read.'), requestId);
  onUnexpected(error, requestId);
  sendError(
    res,
    new AppError(
      'internal',
      `Something went wrong on our side; quote request id ${requestId} when reporting it.`,
    ),
    requestId,
  );
}
