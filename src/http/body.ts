import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { AppError } from '../core/errors.ts';

export const MAX_BODY_BYTES = 1024 * 1024;

type Parsed = IncomingMessage & { body?: unknown; rawBody?: Buffer };
type Parser = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

// Express's own JSON body parser (body-parser): size limit, charsets, compressed bodies, and the
// error types sendAnyError maps. It parses only bodies declared as JSON and leaves others unread.
const options = { limit: MAX_BODY_BYTES, type: ['application/json', 'application/*+json'] };
const parseJson = express.json(options) as Parser;
const parseJsonKeepingBytes = express.json({ ...options, verify: (req, _res, bytes) => { (req as Parsed).rawBody = bytes; } }) as Parser;

/**
 * The request's JSON body (undefined without one), and its bytes when `keepBytes`. A request that
 * carries a body must say it is JSON (415 otherwise); bodiless POSTs are fine.
 */
export async function readJsonBody(req: IncomingMessage, res: ServerResponse, keepBytes: boolean): Promise<{ body: unknown; rawBody?: Buffer }> {
  const length = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (length === undefined && !chunked) return { body: undefined };
  const parsed = req as Parsed;
  await new Promise<void>((resolve, reject) => {
    (keepBytes ? parseJsonKeepingBytes : parseJson)(req, res, (error) => (error ? reject(error) : resolve()));
  });
  if ((Number(length ?? 0) > 0 || chunked) && parsed.body === undefined) {
    throw new AppError('unsupported_media_type', 'Send the request body as JSON with "content-type: application/json".');
  }
  return { body: parsed.body, rawBody: parsed.rawBody };
}
