import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { AppError } from '../core/errors.ts';

export const MAX_BODY_BYTES = 1024 * 1024;

/** The request declares a body that has not all arrived yet. */
export function bodyPending(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

type Parsed = IncomingMessage & { body?: unknown; rawBody?: Buffer };
type Parser = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

// Express's own JSON body parser (body-parser): size limit, charsets, compressed bodies, and the
// error types sendAnyError maps. It parses only bodies declared as JSON and leaves others unread.
const options = { limit: MAX_BODY_BYTES, type: ['application/json', 'application/*+json'] };
const parseJson = express.json(options) as Parser;
const parseJsonKeepingBytes = express.json({
  ...options,
  verify: (req, _res, bytes) => {
    (req as Parsed).rawBody = bytes;
  },
}) as Parser;

/**
 * The request's JSON body (undefined without one), and its bytes when `keepBytes`. A request that
 * carries a body must say it is JSON (415 otherwise); bodiless POSTs are fine. A declared length
 * over the limit is refused before a byte is read, and the whole body must arrive within
 * `deadlineMs` (408 otherwise): a client that stalls holds neither memory nor a slot for long.
 */
export async function readJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
  keepBytes: boolean,
  deadlineMs: number,
): Promise<{ body: unknown; rawBody?: Buffer }> {
  const length = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (length === undefined && !chunked) return { body: undefined };
  if (Number(length) > MAX_BODY_BYTES)
    throw new AppError('payload_too_large', 'The request body is larger than 1 MB.');
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new AppError(
            'request_timeout',
            `The request body did not arrive within ${deadlineMs / 1000} s; send it at once after the headers.`,
          ),
        ),
      deadlineMs,
    );
  });
  try {
    return await Promise.race([readBody(req, res, keepBytes, length, chunked), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  keepBytes: boolean,
  length: string | undefined,
  chunked: boolean,
): Promise<{ body: unknown; rawBody?: Buffer }> {
  if (!chunked && isPlainJson(req)) return readPlainJson(req, Number(length), keepBytes);
  const parsed = req as Parsed;
  await new Promise<void>((resolve, reject) => {
    (keepBytes ? parseJsonKeepingBytes : parseJson)(req, res, (error) =>
      error ? reject(error) : resolve(),
    );
  });
  if ((Number(length ?? 0) > 0 || chunked) && parsed.body === undefined) {
    throw new AppError(
      'unsupported_media_type',
      'Send the request body as JSON with "content-type: application/json".',
    );
  }
  return { body: parsed.body, rawBody: parsed.rawBody };
}

/**
 * What nearly every client sends: UTF-8 JSON, uncompressed, with its length, within the limit.
 * That is read here, at a fraction of body-parser's cost per request (type-is, raw-body, iconv);
 * anything else (other charsets, compression, chunks, too large) goes through body-parser.
 */
const PLAIN_JSON = /^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/i;

function isPlainJson(req: IncomingMessage): boolean {
  const {
    'content-type': type,
    'content-encoding': encoding,
    'content-length': length,
  } = req.headers;
  const bytes = Number(length);
  return (
    type !== undefined &&
    PLAIN_JSON.test(type) &&
    (encoding === undefined || encoding.toLowerCase() === 'identity') &&
    Number.isSafeInteger(bytes) &&
    bytes <= MAX_BODY_BYTES
  );
}

function readPlainJson(
  req: IncomingMessage,
  length: number,
  keepBytes: boolean,
): Promise<{ body: unknown; rawBody?: Buffer }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let ended = false;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      chunks.push(chunk);
    });
    req.once('end', () => {
      ended = true;
      // The same answer body-parser gives to a body that is not what its length said (400).
      if (received !== length)
        return reject(
          Object.assign(new Error('request size did not match content length'), { status: 400 }),
        );
      const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received);
      try {
        resolve({ body: parseStrictJson(bytes), rawBody: keepBytes ? bytes : undefined });
      } catch {
        reject(new AppError('bad_request', 'The request body is not valid JSON.'));
      }
    });
    req.once('error', reject);
    req.once('close', () => {
      if (!ended) reject(Object.assign(new Error('request aborted'), { status: 400 }));
    });
  });
}

/** As body-parser's strict mode: an empty body is {}, and only an object or an array is accepted. */
function parseStrictJson(bytes: Buffer): unknown {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.length === 0) return {};
  const first = /^[ \t\n\r]*([^ \t\n\r])/.exec(text)?.[1];
  if (first !== '{' && first !== '[')
    throw new SyntaxError('a JSON body must be an object or an array');
  return JSON.parse(text);
}
