import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { ResponseTooLargeError } from './errors.ts';

export type TooLargePolicy = 'fail' | 'truncate';

const decoderFor = (contentEncoding: string | undefined) => {
  switch (contentEncoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
};

/**
 * Reads a response body up to `maxBytes` of decoded content (so a small compressed bomb cannot
 * expand without limit). Over the cap it either fails or keeps the first `maxBytes` bytes.
 * Stopping early destroys the stream, which closes that connection instead of draining it.
 */
export async function readBody(
  source: Readable,
  options: {
    url: string;
    contentEncoding?: string;
    maxBytes: number;
    onTooLarge: TooLargePolicy;
  },
): Promise<{ body: Buffer; truncated: boolean; decoded: boolean }> {
  const decoder = decoderFor(options.contentEncoding);
  const stream: Readable = decoder ? pipeline(source, decoder, () => {}) : source;
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (size + chunk.length > options.maxBytes) {
      if (options.onTooLarge === 'fail') {
        stream.destroy();
        throw new ResponseTooLargeError(options.url, options.maxBytes);
      }
      chunks.push(chunk.subarray(0, options.maxBytes - size));
      size = options.maxBytes;
      truncated = true;
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks, size), truncated, decoded: decoder !== undefined };
}
