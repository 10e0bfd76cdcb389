import { AppError } from '../core/errors.ts';

/** The value of the sort field in the last item of a page; null also stands for a missing field. */
export type SortKey = string | number | boolean | null;

export type CursorPosition = { key: SortKey; id: string };

/** Opaque to clients: base64url of the JSON pair [last sort key, last id]. */
export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.key, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): CursorPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch (cause) {
    throw invalidCursor(cause);
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw invalidCursor();
  const [key, id] = parsed as unknown[];
  if (typeof id !== 'string' || !isSortKey(key)) throw invalidCursor();
  return { key, id };
}

export function toSortKey(value: unknown): SortKey {
  return isSortKey(value) ? value : null;
}

function isSortKey(value: unknown): value is SortKey {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function invalidCursor(cause?: unknown): AppError {
  return new AppError(
    'bad_request',
    'cursor is not valid: pass the nextCursor of the previous page unchanged',
    { cause },
  );
}
