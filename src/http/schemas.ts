import { z } from 'zod';
import { ID_PATTERN, type IdPrefix } from '../core/ids.ts';
import { CONTROL_OR_BIDI } from '../core/oneLine.ts';

/** Path ids: a malformed id is a 404 like an unknown one, so ids are checked, not validated loudly. */
export const idOf = (prefix: IdPrefix) => z.string().regex(ID_PATTERN(prefix), `a ${prefix}_… id`);

export const Pagination = {
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
};

export const IsoTime = z
  .string()
  .datetime({ offset: true })
  .transform((value) => new Date(value).toISOString());

/** http(s) URLs with a host; user-supplied addresses are checked again when fetched (SSRF guard). */
// zod runs a refine even after .url() failed, so the refine must cope with text that is not a URL.
const protocolOf = (value: string): string | null =>
  URL.canParse(value) ? new URL(value).protocol : null;
export const WebUrl = z
  .string()
  .trim()
  .max(2048)
  .url()
  .refine((value) => /^https?:$/.test(protocolOf(value) ?? ''), 'an http(s) URL');
export const HttpsUrl = z
  .string()
  .trim()
  .max(2048)
  .url()
  .refine((value) => protocolOf(value) === 'https:', 'an https:// URL');

/**
 * One line of plain text a person typed (a description): no control character, line break or
 * bidirectional mark anywhere (checked before trimming), trimmed, at most `max` characters. Markup
 * in it is kept as the characters it is: whoever shows it shows text.
 */
export const PlainLine = (max: number) =>
  z
    .string()
    .refine(
      (value) => !CONTROL_OR_BIDI.test(value),
      'one line of plain text: no control characters, line breaks or bidirectional marks',
    )
    .trim()
    .max(max);

export const listOf = <T extends z.ZodType>(name: string, item: T) =>
  z.object({ [name]: z.array(item), nextCursor: z.string().nullable() });
